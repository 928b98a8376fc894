// The instruction table: for each PTX opcode, the family handler that lowers it and, one line per form, the
// modifiers and operands that handler implements (pattern language in forms.h). Parsing is generic (every opcode
// parses); this table is the single place that says what translates, and forms.cpp refuses everything else.
// `ptx2glsl ops` prints it.
//
// Adding a form: add one line here after making its handler honour every modifier of the line. A modifier the
// handler would ignore must not appear in any line of its opcode unless it cannot change the bytes the kernel
// writes; such lines say why in their note (cache and eviction hints, scopes of relaxed atomics).
#include <string_view>

#include "emitter.h"
#include "forms.h"

namespace p2g {

namespace {

bool isFloatForm(const ir::Inst& in) {
  for (auto it = in.mods.rbegin(); it != in.mods.rend(); ++it) {
    Ty t = parseTy(*it);
    if (t.k != Ty::K::None) return t.isFloat() || t.isHalfLike();
  }
  return false;
}

// add/sub/mul/mad/min/max/abs/neg exist for integers and floats: the type modifier picks the family.
void arith(Emitter& E, const ir::Inst& in) {
  if (isFloatForm(in)) return emitFloatArith(E, in);
  if (in.hasMod("cc") || in.op == "addc" || in.op == "subc" || in.op == "madc") return emitCarry(E, in);
  return emitIntArith(E, in);
}

constexpr Handler kF = emitFloatArith, kI = emitIntArith, kB = emitBits, kC = emitCarry, kCmp = emitCompare,
                  kMem = emitMemory, kAt = emitAtomic, kImg = emitImage, kW = emitWarp, kV = emitVideo,
                  kT = emitTensor;

constexpr std::string_view kCacheHint =
    "cache operators and eviction hints choose where NVIDIA caches a line; a kernel's loads and stores see the same "
    "bytes with or without them";
constexpr std::string_view kAsync =
    "the cache operator (.ca/.cg) and the L2 hints of cp.async choose where the line is cached; the copied bytes are "
    "the same";
constexpr std::string_view kRelaxed =
    "a relaxed atomic at cta/gpu/sys scope: GLSL atomics are relaxed device-scope atomics, at least as strong, and "
    "nothing outside the dispatch touches memory while it runs";

constexpr std::string_view kPrefetch =
    "the prefetch size asks the L2 cache to fetch the lines around the access; the bytes read are the same";

const std::vector<FormClass> kClasses = {
    {"int", "u16 u32 u64 s16 s32 s64"},
    {"sint", "s16 s32 s64"},
    {"bits", "b16 b32 b64"},
    {"allint", "b16 b32 b64 u16 u32 u64 s16 s32 s64"},
    {"cc", "u32 s32 u64 s64"},
    {"wide", "u16 u32 s16 s32"},
    {"rnd", "rn rz rm rp"},
    {"irnd", "rni rzi rmi rpi"},
    {"half", "f16 f16x2"},
    {"bhalf", "bf16 bf16x2"},
    {"cvti", "u8 u16 u32 u64 s8 s16 s32 s64"},
    {"cmp", "eq ne lt le gt ge"},
    {"ucmp", "lo ls hi hs"},
    {"fcmp", "eq ne lt le gt ge equ neu ltu leu gtu geu num nan"},
    {"bool", "and or xor"},
    {"setd", "u32 s32 f32 f16 bf16"},
    {"selt", "b16 b32 b64 u16 u32 u64 s16 s32 s64 f32 f64"},
    {"ldt", "b8 b16 b32 b64 u8 u16 u32 u64 s8 s16 s32 s64 f32 f64"},
    {"vec", "v2 v4 v8"},
    {"ldcop", "ca cg cs lu"},
    {"stcop", "wb cg cs wt"},
    {"hint", "L1::evict_normal L1::evict_unchanged L1::evict_first L1::evict_last L1::no_allocate "
             "L2::evict_normal L2::evict_first L2::evict_last L2::64B L2::128B L2::256B"},
    {"scope", "cta gpu sys"},
    {"atspace", "global shared"},
    {"space", "global shared local const param"},
    {"geom", "1d 2d 3d a1d a2d"},
    {"oob", "trap clamp zero"},
    {"fp8", "e4m3x2 e5m2x2"},
    {"vt", "u32 s32"},
    {"vop2", "add min max"},
    {"cpfetch", "L2::64B L2::128B L2::256B"},
    {"wss", "global shared shared::cta"},
    {"txq", "width height depth normalized_coords filter_mode addr_mode_0 addr_mode_1 addr_mode_2 array_size "
            "num_mipmap_levels"},
};

// clang-format off
const std::vector<FormLine> kLines = {
    // ---- integer arithmetic (emit_int.cpp); .cc and addc/subc/madc share the carry flag (emitCarry)
    {"add",   arith, "$int",                               "d, a, a"},
    {"add",   arith, ".sat .s32",                          "d, a, a"},
    {"add",   arith, ".cc $cc",                            "d, a, a"},
    {"sub",   arith, "$int",                               "d, a, a"},
    {"sub",   arith, ".sat .s32",                          "d, a, a"},
    {"sub",   arith, ".cc $cc",                            "d, a, a"},
    {"mul",   arith, ".{hi,lo} $int",                      "d, a, a"},
    {"mul",   arith, ".wide $wide",                        "d:2T, a, a"},
    {"mad",   arith, ".{hi,lo} $int",                      "d, a, a, a"},
    {"mad",   arith, ".hi .sat .s32",                      "d, a, a, a"},
    {"mad",   arith, ".wide $wide",                        "d:2T, a, a, a:2T"},
    {"mad",   arith, ".lo .cc $cc",                        "d, a, a, a"},
    {"mad",   arith, ".hi .cc $cc",                        "d, a, a, a"},  // signed types: the signed high product
    {"addc",  kC,    ".cc? $cc",                           "d, a, a"},
    {"subc",  kC,    ".cc? $cc",                           "d, a, a"},
    {"madc",  kC,    ".lo .cc? $cc",                       "d, a, a, a"},
    {"madc",  kC,    ".hi .cc? $cc",                       "d, a, a, a"},
    {"min",   arith, "$int",                               "d, a, a"},
    {"min",   arith, ".relu .s32",                         "d, a, a"},
    {"max",   arith, "$int",                               "d, a, a"},
    {"max",   arith, ".relu .s32",                         "d, a, a"},
    {"abs",   arith, "$sint",                              "d, a"},
    {"neg",   arith, "$sint",                              "d, a"},
    {"div",   arith, "$int",                               "d, a, a"},
    {"rem",   kI,    "$int",                               "d, a, a"},
    {"mul24", kI,    ".{hi,lo} .{u32,s32}",                "d, a, a"},
    {"mad24", kI,    ".{hi,lo} .{u32,s32}",                "d, a, a, a"},
    {"sad",   kI,    "$int",                               "d, a, a, a"},

    // ---- floating point (emit_float.cpp): f32, f64, f16/bf16 and their x2 forms (half-precision add/sub/mul/fma
    // take only .rn: PTX ISA "Half Precision Floating-Point Instructions")
    {"add",   arith, "$rnd? .ftz? .sat? .f32",             "d, a, a"},
    {"add",   arith, "$rnd? .f64",                         "d, a, a"},
    {"add",   arith, ".rn? .ftz? .sat? $half",             "d, a, a"},
    {"add",   arith, ".rn? $bhalf",                        "d, a, a"},
    {"sub",   arith, "$rnd? .ftz? .sat? .f32",             "d, a, a"},
    {"sub",   arith, "$rnd? .f64",                         "d, a, a"},
    {"sub",   arith, ".rn? .ftz? .sat? $half",             "d, a, a"},
    {"sub",   arith, ".rn? $bhalf",                        "d, a, a"},
    {"mul",   arith, "$rnd? .ftz? .sat? .f32",             "d, a, a"},
    {"mul",   arith, "$rnd? .f64",                         "d, a, a"},
    {"mul",   arith, ".rn? .ftz? .sat? $half",             "d, a, a"},
    {"mul",   arith, ".rn? $bhalf",                        "d, a, a"},
    {"fma",   kF,    "$rnd .ftz? .sat? .f32",              "d, a, a, a"},
    {"fma",   kF,    "$rnd .f64",                          "d, a, a, a"},
    {"fma",   kF,    ".rn .ftz? .sat? $half",              "d, a, a, a"},
    {"fma",   kF,    ".rn .ftz? .relu $half",              "d, a, a, a"},
    {"fma",   kF,    ".rn .relu? $bhalf",                  "d, a, a, a"},
    {"mad",   arith, "$rnd .ftz? .sat? .f32",              "d, a, a, a"},
    {"mad",   arith, "$rnd .f64",                          "d, a, a, a"},
    {"min",   arith, ".ftz? .NaN? [.xorsign .abs] .f32",   "d, a, a"},
    {"min",   arith, ".ftz? .NaN? .f32",                   "d, a, a, a"},
    {"min",   arith, ".f64",                               "d, a, a"},
    {"min",   arith, ".ftz? .NaN? [.xorsign .abs] $half",  "d, a, a"},
    {"min",   arith, ".NaN? [.xorsign .abs] $bhalf",       "d, a, a"},
    {"max",   arith, ".ftz? .NaN? [.xorsign .abs] .f32",   "d, a, a"},
    {"max",   arith, ".ftz? .NaN? .f32",                   "d, a, a, a"},
    {"max",   arith, ".f64",                               "d, a, a"},
    {"max",   arith, ".ftz? .NaN? [.xorsign .abs] $half",  "d, a, a"},
    {"max",   arith, ".NaN? [.xorsign .abs] $bhalf",       "d, a, a"},
    {"abs",   arith, ".ftz? .f32",                         "d, a"},
    {"abs",   arith, ".f64",                               "d, a"},
    {"abs",   arith, ".ftz? $half",                        "d, a"},
    {"abs",   arith, "$bhalf",                             "d, a"},
    {"neg",   arith, ".ftz? .f32",                         "d, a"},
    {"neg",   arith, ".f64",                               "d, a"},
    {"neg",   arith, ".ftz? $half",                        "d, a"},
    {"neg",   arith, "$bhalf",                             "d, a"},
    {"div",   arith, ".{approx,full} .ftz? .f32",          "d, a, a"},
    {"div",   arith, "$rnd .ftz? .f32",                    "d, a, a"},
    {"div",   arith, "$rnd .f64",                          "d, a, a"},
    {"rcp",   kF,    ".approx .ftz? .f32",                 "d, a"},
    {"rcp",   kF,    "$rnd .ftz? .f32",                    "d, a"},
    {"rcp",   kF,    "$rnd .f64",                          "d, a"},
    {"rcp",   kF,    ".approx .ftz .f64",                  "d, a"},
    {"rsqrt", kF,    ".approx .f64",                       "d, a"},
    {"sqrt",  kF,    ".approx .ftz? .f32",                 "d, a"},
    {"sqrt",  kF,    "$rnd .ftz? .f32",                    "d, a"},
    {"sqrt",  kF,    "$rnd .f64",                          "d, a"},
    {"rsqrt", kF,    ".approx .ftz? .f32",                 "d, a"},
    {"ex2",   kF,    ".approx .ftz? .f32",                 "d, a"},
    {"ex2",   kF,    ".approx $half",                      "d, a"},
    {"ex2",   kF,    ".approx .ftz $bhalf",                "d, a"},
    {"lg2",   kF,    ".approx .ftz? .f32",                 "d, a"},
    {"sin",   kF,    ".approx .ftz? .f32",                 "d, a"},
    {"cos",   kF,    ".approx .ftz? .f32",                 "d, a"},
    {"tanh",  kF,    ".approx .{f32,f16,f16x2,bf16,bf16x2}", "d, a"},
    {"copysign", kF, ".f32",                               "d, a, a"},

    // ---- bit manipulation (emit_int.cpp)
    {"and",   kB,    "$bits",                              "d, a, a"},
    {"and",   kB,    ".pred",                              "q, p, p"},
    {"or",    kB,    "$bits",                              "d, a, a"},
    {"or",    kB,    ".pred",                              "q, p, p"},
    {"xor",   kB,    "$bits",                              "d, a, a"},
    {"xor",   kB,    ".pred",                              "q, p, p"},
    {"not",   kB,    "$bits",                              "d, a"},
    {"not",   kB,    ".pred",                              "q, p"},
    {"cnot",  kB,    "$bits",                              "d, a"},
    {"shl",   kB,    "$bits",                              "d, a, a:32"},
    {"shr",   kB,    "$allint",                            "d, a, a:32"},
    {"popc",  kB,    ".{b32,b64}",                         "d:32, a"},
    {"clz",   kB,    ".{b32,b64}",                         "d:32, a"},
    {"brev",  kB,    ".{b32,b64}",                         "d, a"},
    {"bfind", kB,    ".shiftamt? .{u32,u64,s32,s64}",      "d:32, a"},
    {"bfe",   kB,    ".{u32,u64,s32,s64}",                 "d, a, a:32, a:32"},
    {"bfi",   kB,    ".{b32,b64}",                         "d, a, a, a:32, a:32"},
    {"prmt",  kB,    ".b32 .{f4e,b4e,rc8,ecl,ecr,rc16}?",  "d, a, a, a"},
    {"shf",   kB,    ".{l,r} .{wrap,clamp} .b32",          "d, a, a, a"},
    {"lop3",  kB,    ".b32",                               "d, a, a, a, i"},
    {"bmsk",  kB,    ".{clamp,wrap} .b32",                 "d, a, a"},

    // ---- integer dot products and scalar video instructions (emit_video.cpp); type modifiers dtype, atype,
    // btype in that order. Without a secondary operation, a fourth operand c goes with a merge destination d.bN.
    {"dp4a",  kV,    ".{u32,s32} .{u32,s32}",              "d:32, a:32, a:32, a:32"},
    {"dp2a",  kV,    ".{lo,hi} .{u32,s32} .{u32,s32}",     "d:32, a:32, a:32, a:32"},
    {"vadd",     kV, "$vt $vt $vt .sat? $vop2?",           "d:32, a:32, a:32, a:32@vop2"},
    {"vadd",     kV, "$vt $vt $vt .sat?",                  "d:32, a:32, a:32, a:32"},
    {"vsub",     kV, "$vt $vt $vt .sat? $vop2?",           "d:32, a:32, a:32, a:32@vop2"},
    {"vsub",     kV, "$vt $vt $vt .sat?",                  "d:32, a:32, a:32, a:32"},
    {"vabsdiff", kV, "$vt $vt $vt .sat? $vop2?",           "d:32, a:32, a:32, a:32@vop2"},
    {"vabsdiff", kV, "$vt $vt $vt .sat?",                  "d:32, a:32, a:32, a:32"},
    {"vmin",     kV, "$vt $vt $vt .sat? $vop2?",           "d:32, a:32, a:32, a:32@vop2"},
    {"vmin",     kV, "$vt $vt $vt .sat?",                  "d:32, a:32, a:32, a:32"},
    {"vmax",     kV, "$vt $vt $vt .sat? $vop2?",           "d:32, a:32, a:32, a:32@vop2"},
    {"vmax",     kV, "$vt $vt $vt .sat?",                  "d:32, a:32, a:32, a:32"},
    {"vshl",     kV, "$vt $vt .u32 .sat? .{clamp,wrap} $vop2?", "d:32, a:32, a:32, a:32@vop2"},
    {"vshl",     kV, "$vt $vt .u32 .sat? .{clamp,wrap}",   "d:32, a:32, a:32, a:32"},
    {"vshr",     kV, "$vt $vt .u32 .sat? .{clamp,wrap} $vop2?", "d:32, a:32, a:32, a:32@vop2"},
    {"vshr",     kV, "$vt $vt .u32 .sat? .{clamp,wrap}",   "d:32, a:32, a:32, a:32"},
    {"vset",     kV, "$vt $vt $cmp $vop2?",                "d:32, a:32, a:32, a:32@vop2"},
    {"vset",     kV, "$vt $vt $cmp",                       "d:32, a:32, a:32, a:32"},

    // ---- comparisons and selects (emit_cvt.cpp)
    {"setp",  kCmp,  "$cmp $bool? $int",                   "Q, a, a, p@bool"},
    {"setp",  kCmp,  "$ucmp $bool? .{u16,u32,u64}",        "Q, a, a, p@bool"},
    {"setp",  kCmp,  ".{eq,ne} $bool? $bits",              "Q, a, a, p@bool"},
    {"setp",  kCmp,  "$fcmp $bool? .ftz? .{f32,f16}",      "Q, a, a, p@bool"},
    {"setp",  kCmp,  "$fcmp $bool? .{f64,bf16}",           "Q, a, a, p@bool"},
    {"setp",  kCmp,  "$fcmp $bool? .ftz? .f16x2",          "R, a, a, p@bool"},
    {"setp",  kCmp,  "$fcmp $bool? .bf16x2",               "R, a, a, p@bool"},
    {"set",   kCmp,  "$cmp $bool? $setd $int",             "d:T0, a:T1, a:T1, p@bool"},
    {"set",   kCmp,  "$ucmp $bool? $setd .{u16,u32,u64}",  "d:T0, a:T1, a:T1, p@bool"},
    {"set",   kCmp,  ".{eq,ne} $bool? $setd $bits",        "d:T0, a:T1, a:T1, p@bool"},
    {"set",   kCmp,  "$fcmp $bool? .ftz? $setd .{f32,f16}", "d:T0, a:T1, a:T1, p@bool"},
    {"set",   kCmp,  "$fcmp $bool? $setd .{f64,bf16}",     "d:T0, a:T1, a:T1, p@bool"},
    {"set",   kCmp,  "$fcmp $bool? .ftz? .{f16x2,u32,s32} .f16x2", "d:T0, a:T1, a:T1, p@bool"},
    {"set",   kCmp,  "$fcmp $bool? .{bf16x2,u32,s32} .bf16x2",     "d:T0, a:T1, a:T1, p@bool"},
    {"selp",  kCmp,  "$selt",                              "d, a, a, p"},
    {"slct",  kCmp,  "$selt .s32",                         "d:T0, a:T0, a:T0, a:T1"},
    {"slct",  kCmp,  ".ftz? $selt .f32",                   "d:T0, a:T0, a:T0, a:T1"},
    {"testp", kCmp,  ".{finite,infinite,number,notanumber,normal,subnormal} .{f32,f64}", "q, a"},

    // ---- conversions (emit_cvt.cpp); T0 is the destination type, T1 the source type. Float-to-integer
    // conversions always saturate (PTX ISA "cvt"), so .sat changes nothing there.
    {"cvt",   emitCvt, ".sat? $cvti $cvti",                "d:T0+, a:T1+"},
    {"cvt",   emitCvt, "$irnd .sat? $cvti .{f16,bf16,f64}", "d:T0+, a:T1+"},
    {"cvt",   emitCvt, "$irnd .ftz? .sat? $cvti .f32",     "d:T0+, a:T1+"},
    {"cvt",   emitCvt, "$rnd .ftz? .sat? .f32 $cvti",      "d:T0+, a:T1+"},
    {"cvt",   emitCvt, "$rnd .sat? .{f64,f16,bf16} $cvti", "d:T0+, a:T1+"},
    {"cvt",   emitCvt, ".pack .sat .{u16,s16} .s32",       "d:32, a:32, a:32"},
    {"cvt",   emitCvt, ".pack .sat .{u8,s8} .s32 .b32",    "d:32, a:32, a:32, a:32"},
    {"cvt",   emitCvt, ".pack .sat .{u4,s4,u2,s2} .s32 .b32", "d:32, a:32, a:32, a:32"},
    {"cvt",   emitCvt, ".ftz? .sat? .f32 .{f16,bf16}",     "d:T0+, a:T1+"},
    {"cvt",   emitCvt, ".ftz? .sat? .f64 .f32",            "d:T0+, a:T1+"},
    {"cvt",   emitCvt, ".sat? .f64 .{f16,bf16}",           "d:T0+, a:T1+"},
    {"cvt",   emitCvt, "$rnd .ftz? .sat? .f32 .f64",       "d:T0+, a:T1+"},
    {"cvt",   emitCvt, "$rnd .ftz? .sat? .{f16,bf16} .f32", "d:T0+, a:T1+"},
    {"cvt",   emitCvt, "$rnd .ftz? .relu .{f16,bf16} .f32", "d:T0+, a:T1+"},
    {"cvt",   emitCvt, "$rnd .sat? .{f16,bf16} .f64",      "d:T0+, a:T1+"},
    {"cvt",   emitCvt, "$irnd? .ftz? .sat? .f32 .f32",     "d:T0+, a:T1+"},
    {"cvt",   emitCvt, "$irnd? .sat? .f64 .f64",           "d:T0+, a:T1+"},
    {"cvt",   emitCvt, "$irnd .f16 .f16",                  "d:T0+, a:T1+"},
    {"cvt",   emitCvt, "$irnd .bf16 .bf16",                "d:T0+, a:T1+"},
    {"cvt",   emitCvt, "$rnd .relu? .{f16x2,bf16x2} .f32", "d:T0+, a:T1+, a:T1+"},
    {"cvt",   emitCvt, ".rn .satfinite .relu? $fp8 .f32",  "d:T0+, a:T1+, a:T1+"},
    {"cvt",   emitCvt, ".rn .satfinite .relu? $fp8 .f16x2", "d:T0+, a:T1+"},
    {"cvt",   emitCvt, ".rn .relu? .f16x2 $fp8",           "d:T0+, a:T1+"},
    {"cvt",   emitCvt, ".rna .satfinite? .tf32 .f32",      "d:32, a:32"},

    // ---- data movement and memory (emit_mem.cpp). ld/st.volatile: relaxed atomics (PTX ISA 8.4.2; the comment
    // above Emitter::load); the ISA allows them on .global, .shared and generic addresses, without cache operators
    // and eviction hints, and ld with a prefetch size
    {"mov",   emitMov, ".pred",                            "q, p"},
    {"mov",   emitMov, "$selt",                            "d, a"},
    {"mov",   emitMov, ".{b16,b32,b64}",                   "U, a"},
    {"mov",   emitMov, ".{b16,b32,b64}",                   "d, P"},
    {"mov",   emitMov, ".{v2,v4} $selt",                   "V, v"},
    {"ld",    kMem,  ".weak? $space? $ldcop? $hint? $hint? $vec? $ldt", "V:T+, m", kCacheHint},
    {"ld",    kMem,  ".weak? .global .nc $ldcop? $hint? $hint? $vec? $ldt", "V:T+, m", kCacheHint},
    {"ld",    kMem,  ".volatile .{global,shared}? .{v2,v4}? $ldt", "V:T+, m"},
    {"ld",    kMem,  ".volatile .global? .{L2::64B,L2::128B,L2::256B} .{v2,v4}? $ldt", "V:T+, m", kPrefetch},
    {"ldu",   kMem,  ".global? $vec? $ldt",                "V:T+, m"},
    {"st",    kMem,  ".weak? .{global,shared,local,param}? $stcop? $hint? $vec? $ldt", "m, v:T+", kCacheHint},
    {"st",    kMem,  ".volatile .{global,shared}? .{v2,v4}? $ldt", "m, v:T+"},
    {"cvta",  kMem,  "$space .u64",                        "d, a"},
    {"cvta",  kMem,  ".to $space .{u32,u64}",              "d, a:64"},
    {"prefetch",  kMem, ".{global,local}? .{L1,L2}",       "m", "a prefetch only warms a cache"},
    {"prefetch",  kMem, ".global .{L2::evict_last,L2::evict_normal}", "m", "a prefetch only warms a cache"},
    {"prefetchu", kMem, ".L1",                             "m", "a prefetch only warms a cache"},
    {"atom",  kAt,   ".relaxed? $scope? $atspace? .add .{u32,s32,u64,f32,f64}", "d, m, a", kRelaxed},
    {"atom",  kAt,   ".relaxed? $scope? $atspace? .{and,or,xor,exch} .{b32,b64}", "d, m, a", kRelaxed},
    {"atom",  kAt,   ".relaxed? $scope? $atspace? .cas .{b32,b64}", "d, m, a, a", kRelaxed},
    {"atom",  kAt,   ".relaxed? $scope? $atspace? .{min,max} .{u32,s32,u64,s64}", "d, m, a", kRelaxed},
    {"atom",  kAt,   ".relaxed? $scope? $atspace? .{inc,dec} .u32", "d, m, a", kRelaxed},
    {"red",   kAt,   ".relaxed? $scope? $atspace? .add .{u32,s32,u64,f32,f64}", "m, a", kRelaxed},
    {"red",   kAt,   ".relaxed? $scope? $atspace? .{and,or,xor} .{b32,b64}", "m, a", kRelaxed},
    {"red",   kAt,   ".relaxed? $scope? $atspace? .{min,max} .{u32,s32,u64,s64}", "m, a", kRelaxed},
    {"red",   kAt,   ".relaxed? $scope? $atspace? .{inc,dec} .u32", "m, a", kRelaxed},

    // ---- synchronisation (emit_mem.cpp): barrier 0 of the whole block; fences order every memory access
    {"bar",     emitSync, ".cta? .sync .aligned?",         "i:32"},
    {"bar",     emitSync, ".cta? .sync .aligned?",         "i:32, i:32"},
    {"bar",     emitSync, ".cta? .arrive .aligned?",       "i:32, i:32"},
    {"bar",     emitSync, ".cta? .red .popc .aligned? .u32", "d:32, i:32, p"},
    {"bar",     emitSync, ".cta? .red .popc .aligned? .u32", "d:32, i:32, i:32, p"},
    {"bar",     emitSync, ".cta? .red .{and,or} .aligned? .pred", "q, i:32, p"},
    {"bar",     emitSync, ".cta? .red .{and,or} .aligned? .pred", "q, i:32, i:32, p"},
    {"bar",     emitSync, ".warp .sync",                   "a:32"},  // a warp instruction (emit_warp.cpp)
    {"barrier", emitSync, ".cta? .sync? .aligned?",        "i:32"},
    {"barrier", emitSync, ".cta? .sync? .aligned?",        "i:32, i:32"},
    {"barrier", emitSync, ".cta? .arrive .aligned?",       "i:32, i:32"},
    {"barrier", emitSync, ".cta? .red .popc .aligned? .u32", "d:32, i:32, p"},
    {"barrier", emitSync, ".cta? .red .popc .aligned? .u32", "d:32, i:32, i:32, p"},
    {"barrier", emitSync, ".cta? .red .{and,or} .aligned? .pred", "q, i:32, p"},
    {"barrier", emitSync, ".cta? .red .{and,or} .aligned? .pred", "q, i:32, i:32, p"},
    {"nanosleep", emitSync, ".u32",                        "a:32", "a delay: no value changes"},
    {"membar",  emitSync, ".{cta,gl,sys}",                 ""},
    {"fence",   emitSync, ".{sc,acq_rel} $scope",          ""},

    // ---- textures and surfaces (emit_tex.cpp); T0 is the result type, T1 the coordinate type
    {"tex",   kImg,  ".{level,grad}? $geom .v4 .{f32,s32,u32} .{f32,s32}", "V:32, x, a:32@level, w@grad, w@grad"},
    {"tld4",  kImg,  ".{r,g,b,a} .{2d,a2d} .v4 .{f32,s32,u32} .f32", "V:32, x"},
    {"txq",   kImg,  "$txq .b32",                          "d:32, x"},
    {"suq",   kImg,  ".{width,height,depth} .b32",         "d:32, x"},
    {"suld",  kImg,  ".b $geom .{v2,v4}? .{b8,b16,b32,b64} $oob?", "V:T+, x"},
    {"sust",  kImg,  ".b $geom .{v2,v4}? .{b8,b16,b32,b64} $oob?", "x, v:T+"},

    // ---- warp (emit_warp.cpp)
    {"shfl",  kW,    ".sync? .{up,down,bfly,idx} .b32",    "e:32, a:32, a:32, a:32, a:32@sync"},
    {"vote",  kW,    ".sync? .{all,any,uni} .pred",        "q, p, a:32@sync"},
    {"vote",  kW,    ".sync? .ballot .b32",                "d:32, p, a:32@sync"},
    {"activemask", kW, ".b32",                             "d:32"},
    {"redux", kW,    ".sync .{add,min,max} .{u32,s32}",    "d:32, a:32, a:32"},
    {"redux", kW,    ".sync .{and,or,xor} .b32",           "d:32, a:32, a:32"},
    {"match", kW,    ".any .sync .{b32,b64}",              "d:32, a, a:32"},
    {"match", kW,    ".all .sync .{b32,b64}",              "e:32, a, a:32"},
    {"elect", kW,    ".sync",                              "E:32, a:32"},

    // ---- tensor cores (emit_mma.cpp): the forms whose arithmetic the H200 measurement fits (docs/MMA.md)
    {"mma", emitMma, ".sync .aligned .m16n8k16 .row .col .f32 .f16 .f16 .f32",   "D:32, w:32, w:32, w:32"},
    {"mma", emitMma, ".sync .aligned .m16n8k16 .row .col .f16 .f16 .f16 .f16",   "D:32, w:32, w:32, w:32"},
    {"mma", emitMma, ".sync .aligned .m16n8k16 .row .col .f32 .bf16 .bf16 .f32", "D:32, w:32, w:32, w:32"},
    {"mma", emitMma, ".sync .aligned .m16n8k8 .row .col .f32 .tf32 .tf32 .f32",  "D:32, w:32, w:32, w:32"},
    {"mma", emitMma, ".sync .aligned .m16n8k8 .row .col .f32 .f16 .f16 .f32",    "D:32, w:32, w:32, w:32"},
    {"mma", emitMma, ".sync .aligned .m16n8k32 .row .col .satfinite? .s32 .s8 .s8 .s32", "D:32, w:32, w:32, w:32"},
    {"mma", emitMma, ".sync .aligned .m16n8k32 .row .col .f32 .e4m3 .e4m3 .f32", "D:32, w:32, w:32, w:32"},
    {"mma", emitMma, ".sync .aligned .m16n8k32 .row .col .f32 .e5m2 .e5m2 .f32", "D:32, w:32, w:32, w:32"},
    {"mma", emitMma, ".sync .aligned .m16n8k32 .row .col .f32 .e4m3 .e5m2 .f32", "D:32, w:32, w:32, w:32"},
    {"mma", emitMma, ".sync .aligned .m16n8k32 .row .col .f16 .e4m3 .e4m3 .f16", "D:32, w:32, w:32, w:32"},

    // ---- warp matrix movement, wmma (m16n16k16, m16n16k8 tf32), async copies (emit_tensor.cpp, docs/TENSOR.md)
    {"ldmatrix",  kT, ".sync .aligned .m8n8 .{x1,x2,x4} .trans? .{shared,shared::cta}? .b16", "D:32, m"},
    {"stmatrix",  kT, ".sync .aligned .m8n8 .{x1,x2,x4} .trans? .{shared,shared::cta}? .b16", "m, w:32"},
    {"movmatrix", kT, ".sync .aligned .m8n8 .trans .b16",  "d:32, a:32"},
    {"wmma", kT, ".load .{a,b} .sync .aligned .{row,col} .m16n16k16 $wss? .{f16,bf16}", "D:32, m, a:32"},
    {"wmma", kT, ".load .{a,b} .sync .aligned .{row,col} .m16n16k16 $wss? .{f16,bf16}", "D:32, m"},
    {"wmma", kT, ".load .{a,b} .sync .aligned .{row,col} .m16n16k8 $wss? .tf32", "D:32, m, a:32"},
    {"wmma", kT, ".load .{a,b} .sync .aligned .{row,col} .m16n16k8 $wss? .tf32", "D:32, m"},
    {"wmma", kT, ".load .{a,b} .sync .aligned .{row,col} .m16n16k16 $wss? .{s8,u8}", "D:32, m, a:32"},
    {"wmma", kT, ".load .{a,b} .sync .aligned .{row,col} .m16n16k16 $wss? .{s8,u8}", "D:32, m"},
    {"wmma", kT, ".load .c .sync .aligned .{row,col} .m16n16k16 $wss? .s32", "D:32, m, a:32"},
    {"wmma", kT, ".load .c .sync .aligned .{row,col} .m16n16k16 $wss? .s32", "D:32, m"},
    {"wmma", kT, ".store .d .sync .aligned .{row,col} .m16n16k16 $wss? .s32", "m, w:32, a:32"},
    {"wmma", kT, ".store .d .sync .aligned .{row,col} .m16n16k16 $wss? .s32", "m, w:32"},
    {"wmma", kT, ".mma .sync .aligned .{row,col} .{row,col} .m16n16k16 .s32 .{s8,u8} .{s8,u8} .s32 .satfinite?",
     "D:32, w:32, w:32, w:32"},
    {"wmma", kT, ".load .c .sync .aligned .{row,col} .{m16n16k16,m16n16k8} $wss? .{f16,f32}", "D:32, m, a:32"},
    {"wmma", kT, ".load .c .sync .aligned .{row,col} .{m16n16k16,m16n16k8} $wss? .{f16,f32}", "D:32, m"},
    {"wmma", kT, ".store .d .sync .aligned .{row,col} .{m16n16k16,m16n16k8} $wss? .{f16,f32}", "m, w:32, a:32"},
    {"wmma", kT, ".store .d .sync .aligned .{row,col} .{m16n16k16,m16n16k8} $wss? .{f16,f32}", "m, w:32"},
    {"wmma", kT, ".mma .sync .aligned .{row,col} .{row,col} .m16n16k16 .{f16,f32} .{f16,f32}", "D:32, w:32, w:32, w:32"},
    {"wmma", kT, ".mma .sync .aligned .{row,col} .{row,col} .m16n16k16 .f32 .bf16 .bf16 .f32", "D:32, w:32, w:32, w:32"},
    {"wmma", kT, ".mma .sync .aligned .{row,col} .{row,col} .m16n16k8 .f32 .tf32 .tf32 .f32", "D:32, w:32, w:32, w:32"},
    {"cp", kT, ".async .{ca,cg} .{shared,shared::cta} .global .L2::cache_hint? $cpfetch?", "m, m, i, a:64@L2::cache_hint", kAsync},
    {"cp", kT, ".async .{ca,cg} .{shared,shared::cta} .global .L2::cache_hint? $cpfetch?", "m, m, i, a:32, a:64@L2::cache_hint", kAsync},
    {"cp", kT, ".async .{ca,cg} .{shared,shared::cta} .global .L2::cache_hint? $cpfetch?", "m, m, i, p, a:64@L2::cache_hint", kAsync},
    {"cp", kT, ".async .{commit_group,wait_all}",          ""},
    {"cp", kT, ".async .wait_group",                       "i"},

    // ---- control flow: lowered by the lifter into blocks and terminators (lift.cpp)
    {"bra",   nullptr, ".uni?",                            "*"},
    {"brx",   nullptr, ".idx .uni?",                       "*"},
    {"ret",   nullptr, ".uni?",                            ""},
    {"exit",  nullptr, "",                                 ""},
    {"call",  nullptr, ".uni?",                            "*"},
};
// clang-format on

}  // namespace

const std::vector<FormLine>& formLines() { return kLines; }
const std::vector<FormClass>& formClasses() { return kClasses; }

// The handlers by opcode, bucketed by first letter and length: the emitter asks for every instruction several
// times (the warp plan, emission), and hashing the opcode cost more than comparing the one or two names that share
// a bucket.
Handler findHandler(std::string_view opcode) {
  struct Index {
    std::vector<std::pair<std::string_view, Handler>> bucket[256];
    static size_t of(std::string_view op) { return (uint8_t(op[0]) * 31u + op.size()) & 255u; }
    Index() {
      for (auto& e : kLines) {
        if (!e.handler || e.op.empty()) continue;
        auto& b = bucket[of(e.op)];
        bool known = false;  // the first line of an opcode names its handler
        for (auto& [op, h] : b) known = known || op == e.op;
        if (!known) b.push_back({e.op, e.handler});
      }
    }
  };
  static const Index index;
  if (opcode.empty()) return nullptr;
  for (auto& [op, h] : index.bucket[Index::of(opcode)])
    if (op == opcode) return h;
  return nullptr;
}

std::vector<std::string> handledOpcodes() {
  std::vector<std::string> v;
  for (auto& e : kLines)
    if (e.handler && (v.empty() || v.back() != e.op) && std::find(v.begin(), v.end(), e.op) == v.end())
      v.emplace_back(e.op);
  return v;
}

}  // namespace p2g

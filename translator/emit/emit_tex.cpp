// Textures and surfaces: tex, tld4, txq, suld.b, sust.b, suq.
//
// A handle register holds the device address of the image's descriptor record (docs/TEXTURES.md), so each
// instruction becomes a call of a helper in tex_prelude.cpp with the handle, the coordinates and what the
// instruction's modifiers fix statically (dimensions, result type, component, boundary mode). Everything the
// runtime decides (format, size, filter, address modes, normalized coordinates) is read from the record.
#include <functional>

#include "emitter.h"
#include "handles.h"
#include "pair_sust.h"

namespace p2g {

using ir::Opnd;

namespace {

// The geometry modifier: dimensions, layered, and how many coordinate components the operand vector has.
struct Geometry {
  uint32_t dims = 0;
  bool layered = false;
  bool ok = false;
};

Geometry geometryOf(const ir::Inst& in) {
  Geometry g;
  for (auto m : in.mods) {
    if (m == "1d") g = {1, false, true};
    else if (m == "2d") g = {2, false, true};
    else if (m == "3d") g = {3, false, true};
    else if (m == "a1d") g = {1, true, true};
    else if (m == "a2d") g = {2, true, true};
  }
  return g;
}

// The last two type modifiers of tex/tld4 (`.v4.f32.s32`: result f32, coordinates s32).
bool typePair(const ir::Inst& in, Ty& dtype, Ty& ctype) {
  std::vector<Ty> tys;
  for (auto m : in.mods) {
    Ty t = parseTy(m);
    if (t.k != Ty::K::None) tys.push_back(t);
  }
  if (tys.size() < 2) return false;
  dtype = tys[tys.size() - 2];
  ctype = tys.back();
  return true;
}

// The coordinate vector of `[h, {c...}]`, resolved by the lifter into the address operand's elems.
bool coordOperands(Emitter& E, const ir::Inst& in, int h, std::vector<Opnd>& out) {
  const Opnd& a = in.ops[h];
  if (a.elems.empty()) return false;
  out = a.elems.size() == 1 && a.elems[0].kind == Opnd::Kind::Vec ? a.elems[0].elems : a.elems;
  return true;
}

std::string handleOf(Emitter& E, const ir::Inst& in, int h) {
  Opnd r;
  r.kind = Opnd::Kind::Reg;
  r.reg = in.ops[h].reg;
  std::string v = E.src(r, Ty{Ty::K::U, 64});
  // the image's name: the parameter (or .texref) the handle comes from (handles.h), when there is one
  std::vector<HandleSource> from;
  std::string why;
  if (!E.handles().trace(r.reg, from, why) || from.size() != 1) return v;
  std::string label = from[0].isTexref ? from[0].texref : E.paramLabel(from[0].offset);
  return label == E.foldedValue(v) ? v : v + " /* " + label + " */";
}

// The manifest image the instruction's handle comes from, when it comes from exactly one parameter (not a
// .texref), else nullptr.
const ManifestImage* manifestImage(Emitter& E, const ir::Inst& in, int h) {
  const std::vector<ManifestImage>* ims = E.images();
  std::vector<HandleSource> from;
  std::string why;
  if (!ims || !E.handles().trace(in.ops[h].reg, from, why) || from.size() != 1 || from[0].isTexref) return nullptr;
  for (const ManifestImage& im : *ims)
    if (im.texref.empty() && im.offset == from[0].offset) return &im;
  return nullptr;
}

// The image-state specialization constant of the instruction's image (tex_prelude.cpp P2GImgState, docs/TEXTURES.md
// "Image state"): P2G_IMG<slot> when the handle comes from exactly one image of the manifest, else 0u (nothing
// known: the helpers read every field from the record).
std::string imageState(Emitter& E, const ir::Inst& in, int h) {
  const ManifestImage* im = manifestImage(E, in, h);
  return im && im->slot < kImageSpecSlots ? "P2G_IMG" + std::to_string(im->slot) : "0u";
}

// The instruction's manifest image where the device samples it (manifest.h deviceSampled) with the instruction's
// geometry, else nullptr.
const ManifestImage* sampledImage(Emitter& E, const ir::Inst& in, int h, const Geometry& g) {
  const ManifestImage* im = manifestImage(E, in, h);
  return im && !g.layered && deviceSampled(*im) && im->dims == g.dims ? im : nullptr;
}

// The coordinate argument of a GLSL texture function of `dims` dimensions (2 or 3: manifest.h deviceSampled).
std::string coordVec(uint32_t dims, const std::string xyz[3], bool integer) {
  std::string v = std::string(integer ? "ivec" : "vec") + std::to_string(dims) + "(" + xyz[0] + ", " + xyz[1];
  return v + (dims == 3 ? ", " + xyz[2] : "") + ")";
}

// The first two arguments of every image helper: the handle and its image state.
std::string imageArgs(Emitter& E, const ir::Inst& in, int h) { return handleOf(E, in, h) + ", " + imageState(E, in, h); }

// Destinations of a vector result (`{%f1, %f2, %f3, %f4}`) or a single register.
std::vector<const Opnd*> destinations(const Opnd& d) {
  std::vector<const Opnd*> v;
  if (d.kind == Opnd::Kind::Vec)
    for (auto& e : d.elems) v.push_back(&e);
  else
    v.push_back(&d);
  return v;
}

// Checks the shape shared by every image instruction: a handle register and a coordinate vector.
bool imageOperands(Emitter& E, const ir::Inst& in, int& h, std::vector<Opnd>& coords, bool needCoords) {
  h = imageHandleOperand(in);
  if (h < 0 || in.ops[h].kind != Opnd::Kind::RegAddr || in.ops[h].reg < 0) {
    E.error(in, "the handle of this instruction must be a register holding a texture or surface object "
                "(module .texref/.surfref variables are not supported: CUDA 12 removed texture references)");
    return false;
  }
  if (!needCoords) return true;
  if (!coordOperands(E, in, h, coords) || coords.empty()) {
    E.error(in, "expected [handle, {coordinates}]");
    return false;
  }
  return true;
}

std::string str(uint32_t v) { return std::to_string(v) + "u"; }

// The coordinate layout of each geometry: layered forms put the layer index first; 3d and a2d pad to four.
bool splitCoords(Emitter& E, const ir::Inst& in, const Geometry& g, const std::vector<Opnd>& c, Ty ctype,
                 std::string xyz[3], std::string& layer) {
  size_t first = g.layered ? 1 : 0;
  if (c.size() < first + g.dims) {
    E.error(in, "expected " + std::to_string(first + g.dims) + " coordinates, found " + std::to_string(c.size()));
    return false;
  }
  layer = g.layered ? E.src(c[0], Ty{Ty::K::S, 32}) : "0";
  bool f = ctype.k == Ty::K::F;
  for (uint32_t a = 0; a < 3; ++a) xyz[a] = a < g.dims ? E.src(c[first + a], ctype) : (f ? "0.0" : "0");
  return true;
}

void storeResults(Emitter& E, const ir::Inst& in, const Opnd& dst, Ty dtype, const std::string& t) {
  static const char* comp[4] = {".x", ".y", ".z", ".w"};
  auto ds = destinations(dst);
  if (ds.size() != 4) return E.error(in, "expected a vector of four destinations");
  for (size_t k = 0; k < 4; ++k) {
    std::string v = t + comp[k];
    if (dtype.k == Ty::K::F) E.store(*ds[k], Ty{Ty::K::F, 32}, "uintBitsToFloat(" + v + ")");
    else if (dtype.k == Ty::K::S) E.store(*ds[k], Ty{Ty::K::S, 32}, "int(" + v + ")");
    else E.store(*ds[k], Ty{Ty::K::U, 32}, v);
  }
}

void emitTex(Emitter& E, const ir::Inst& in) {
  Geometry g = geometryOf(in);
  Ty dtype, ctype;
  if (!g.ok) return E.error(in, "only 1d, 2d, 3d, a1d and a2d textures are supported (cube and multisample are not)");
  if (!typePair(in, dtype, ctype) || !in.hasMod("v4") || dtype.bits != 32 ||
      (ctype.k != Ty::K::F && ctype.k != Ty::K::S) || ctype.bits != 32)
    return E.error(in, "supported forms are .v4.{f32,s32,u32}.{f32,s32}");
  int h;
  std::vector<Opnd> c;
  if (!imageOperands(E, in, h, c, true)) return;
  // Operands after the address: .level has the level, .grad two gradient vectors. The runtimes' textures have
  // one mip level, so both select level 0, as CUDA does for an array without mipmaps. Anything more is an offset
  // or a depth compare value.
  size_t extra = in.ops.size() - size_t(h) - 1;
  size_t allowed = in.hasMod("level") ? 1 : in.hasMod("grad") ? 2 : 0;
  if (extra > allowed) return E.error(in, "texel offsets and depth comparison are not supported yet");
  std::string xyz[3], layer;
  if (!splitCoords(E, in, g, c, ctype, xyz, layer)) return;
  std::string t = E.tmpOf("uvec4");
  bool f = ctype.k == Ty::K::F;
  std::string call;
  // Device sampling (p2g_tex<dims>/p2g_texi<dims>, texturePreludeFor): the slot's sampler first, then what the
  // software helpers take
  if (const ManifestImage* im = sampledImage(E, in, h, g)) {
    std::string n = std::to_string(im->slot);
    call = std::string(f ? "p2g_tex" : "p2g_texi") + std::to_string(g.dims) + "(" + hwSamplerName(im->slot) + ", " +
           handleOf(E, in, h) + ", P2G_IMG" + n + ", " + coordVec(g.dims, xyz, !f) + ")";
  } else {
    call = std::string(f ? "p2g_tex(" : "p2g_texi(") + imageArgs(E, in, h) + (f ? ", vec3(" : ", ivec3(") + xyz[0] +
           ", " + xyz[1] + ", " + xyz[2] + "), " + layer + ", " + str(g.dims) + ")";
  }
  E.line(t + " = " + call + ";");
  storeResults(E, in, in.ops[0], dtype, t);
}

void emitTld4(Emitter& E, const ir::Inst& in) {
  Geometry g = geometryOf(in);
  Ty dtype, ctype;
  int comp = in.hasMod("r") ? 0 : in.hasMod("g") ? 1 : in.hasMod("b") ? 2 : in.hasMod("a") ? 3 : -1;
  if (comp < 0 || !g.ok || g.dims != 2) return E.error(in, "supported forms are tld4.{r,g,b,a}.{2d,a2d}");
  if (!typePair(in, dtype, ctype) || dtype.bits != 32 || ctype.k != Ty::K::F)
    return E.error(in, "supported forms are tld4 .v4.{f32,s32,u32}.f32");
  int h;
  std::vector<Opnd> c;
  if (!imageOperands(E, in, h, c, true)) return;
  if (in.ops.size() > size_t(h) + 1) return E.error(in, "tld4 with offsets or depth comparison is not supported yet");
  std::string xyz[3], layer;
  if (!splitCoords(E, in, g, c, ctype, xyz, layer)) return;
  std::string t = E.tmpOf("uvec4");
  std::string coords = "vec2(" + xyz[0] + ", " + xyz[1] + ")", cs = str(uint32_t(comp));
  // Device sampling (p2g_tld4s, texturePreludeFor): the slot's sampler first, then what p2g_tld4 takes
  if (const ManifestImage* im = sampledImage(E, in, h, g)) {
    std::string n = std::to_string(im->slot);
    E.line(t + " = p2g_tld4s(" + hwSamplerName(im->slot) + ", " + handleOf(E, in, h) + ", P2G_IMG" + n + ", " + coords +
           ", " + cs + ");");
  } else {
    E.line(t + " = p2g_tld4(" + imageArgs(E, in, h) + ", " + coords + ", " + layer + ", " + cs + ");");
  }
  storeResults(E, in, in.ops[0], dtype, t);
}

// The surface helpers (tex_prelude.cpp kSurfHelpers, in every shader with a surface instruction) store 8- and
// 16-bit components with stores of that width: 8- and 16-bit storage.
void surfaceFeatures(Emitter& E) {
  for (const char* f : {"storage8", "int8", "storage16", "int16"}) E.feature(f);
}

// txq / suq: one 32-bit attribute.
void emitQuery(Emitter& E, const ir::Inst& in) {
  if (in.op == "suq") surfaceFeatures(E);
  static const char* kWhat[] = {"width", "height", "depth", "normalized_coords", "filter_mode",
                                "addr_mode_0", "addr_mode_1", "addr_mode_2", "array_size", "num_mipmap_levels"};
  int what = -1;
  for (int i = 0; i < 10; ++i)
    if (in.hasMod(kWhat[i])) what = i;
  if (in.hasMod("level")) return E.error(in, "txq.level is not supported (textures have one mip level)");
  if (what < 0 || (in.op == "suq" && what > 2))
    return E.error(in, std::string("unsupported query; supported: ") +
                           (in.op == "suq" ? "width, height, depth" : "width, height, depth, normalized_coords, "
                                                                      "filter_mode, addr_mode_0..2, array_size, "
                                                                      "num_mipmap_levels"));
  int h;
  std::vector<Opnd> c;
  if (!imageOperands(E, in, h, c, false)) return;
  E.store(in.ops[0], Ty{Ty::K::U, 32}, "p2g_txq(" + imageArgs(E, in, h) + ", " + str(uint32_t(what)) + ")");
}

// suld.b / sust.b: `bits`-wide components, `n` of them, byte-addressed x.
struct SurfForm {
  Geometry g;
  unsigned bits = 0, n = 1;
  unsigned mode = 0;  // 0 trap (the default), 1 clamp, 2 zero
};

bool surfForm(Emitter& E, const ir::Inst& in, SurfForm& f) {
  f.g = geometryOf(in);
  if (!in.hasMod("b")) {
    E.error(in, "formatted surface access (." + std::string(in.hasMod("p") ? "p" : "?") +
                    ") is not supported yet; nvcc's surf*read/write use .b");
    return false;
  }
  if (!f.g.ok) {
    E.error(in, "supported geometries are 1d, 2d, 3d, a1d, a2d");
    return false;
  }
  for (auto m : in.mods) {
    Ty t = parseTy(m);
    if (t.k == Ty::K::B) f.bits = t.bits;
    if (m == "v2") f.n = 2;
    if (m == "v4") f.n = 4;
    if (m == "clamp") f.mode = 1;
    if (m == "zero") f.mode = 2;
  }
  if (!f.bits) {
    E.error(in, "expected a .b8, .b16, .b32 or .b64 type");
    return false;
  }
  return true;
}

// A pair of scalar 16-bit stores made by passes/pair_sust (operands {A's address, A's value, B's value, B's
// address}): one call to p2g_sust2, which stores one 32-bit word where the pair is inside the image and aligned.
// `where` is A's part of the arguments (emitSurface); B differs from A only in x.
void emitSurfacePair(Emitter& E, const ir::Inst& in, const SurfForm& f, const std::string& where) {
  ir::Inst b = in;
  b.ops = {in.ops[3]};
  std::vector<Opnd> cb;
  std::string bxyz[3], blayer;
  if (!coordOperands(E, b, 0, cb) || !splitCoords(E, in, f.g, cb, Ty{Ty::K::S, 32}, bxyz, blayer)) return;
  auto va = destinations(in.ops[1]), vb = destinations(in.ops[2]);
  if (va.size() != 1 || vb.size() != 1) return E.error(in, "expected one data operand per store of the pair");
  Ty w{Ty::K::B, 32};
  E.line("p2g_sust2(" + where + ", " + bxyz[0] + ", " + str(f.mode) + ", " + E.src(*va[0], w) + ", " +
         E.src(*vb[0], w) + ");");
}

void emitSurface(Emitter& E, const ir::Inst& in) {
  surfaceFeatures(E);
  SurfForm f;
  if (!surfForm(E, in, f)) return;
  bool load = in.op == "suld";
  int h;
  std::vector<Opnd> c;
  if (!imageOperands(E, in, h, c, true)) return;
  std::string xyz[3], layer;
  if (!splitCoords(E, in, f.g, c, Ty{Ty::K::S, 32}, xyz, layer)) return;
  const Opnd& data = in.ops[load ? 0 : 1];
  auto vals = destinations(data);
  if (vals.size() != f.n) return E.error(in, "expected " + std::to_string(f.n) + " data operands");
  unsigned cb = f.bits / 8;
  std::string hv = handleOf(E, in, h);
  Ty ty{Ty::K::B, f.bits};
  // the arguments every surface helper starts with: the image and its state, the coordinates, the layer, the
  // dimensions
  std::string where = hv + ", " + imageState(E, in, h) + ", ivec3(" + xyz[0] + ", " + xyz[1] + ", " + xyz[2] + "), " + layer + ", " + str(f.g.dims);
  if (!load && in.hasMod(kMarkPair)) return emitSurfacePair(E, in, f, where);
  if (f.n == 1) {  // one component: one call (tex_prelude.cpp p2g_suld/p2g_sust)
    bool w = f.bits == 64;
    std::string args = where + (w ? "" : ", " + str(cb)) + ", " + str(f.mode);
    if (load) return E.store(*vals[0], ty, (w ? "p2g_suld64(" : "p2g_suld(") + args + ")");
    E.line((w ? "p2g_sust64(" : "p2g_sust(") + args + ", " + E.src(*vals[0], w ? ty : Ty{Ty::K::B, 32}) + ");");
    return;
  }
  if (f.bits <= 32 && (f.n == 2 || f.n == 4)) {  // a vector of 2 or 4: one call (p2g_suldv/p2g_sustv)
    std::string args = where + ", " + str(cb) + ", " + str(f.n) + ", " + str(f.mode);
    const char* comp[] = {".x", ".y", ".z", ".w"};
    if (load) {
      std::string v = E.tmpOf("uvec4");
      E.line(v + " = p2g_suldv(" + args + ");");
      for (unsigned k = 0; k < f.n; ++k) E.store(*vals[k], ty, v + comp[k]);
      return;
    }
    std::string v = "uvec4(";
    for (unsigned k = 0; k < 4; ++k)
      v += (k ? ", " : "") + (k < f.n ? E.src(*vals[k], Ty{Ty::K::B, 32}) : std::string("0u"));
    E.line("p2g_sustv(" + args + ", " + v + "));");
    return;
  }
  std::string off = E.tmpOf("uint");
  std::string okv = E.tmpOf("bool");
  E.line(okv + " = p2g_surf_off(" + where + ", " + str(cb) + ", " + str(f.n) + ", " + str(f.mode) + ", " + off + ");");
  if (load) {
    // Out-of-range .zero (and .trap, which cannot trap here) reads give 0.
    for (unsigned k = 0; k < f.n; ++k) {
      std::string at = off + " + " + str(k * cb);
      std::string v = f.bits == 64 ? "(" + okv + " ? p2g_surf_ld64(" + hv + ", " + at + ") : 0ul)"
                                   : "(" + okv + " ? p2g_surf_ld(" + hv + ", " + at + ", " + str(cb) + ") : 0u)";
      E.store(*vals[k], ty, v);
    }
    return;
  }
  E.open("if (" + okv + ")");
  for (unsigned k = 0; k < f.n; ++k) {
    std::string at = off + " + " + str(k * cb);
    if (f.bits == 64) E.line("p2g_surf_st64(" + hv + ", " + at + ", " + E.src(*vals[k], ty) + ");");
    else E.line("p2g_surf_st(" + hv + ", " + at + ", " + str(cb) + ", " + E.src(*vals[k], Ty{Ty::K::B, 32}) + ");");
  }
  E.close();
}

}  // namespace

void emitImage(Emitter& E, const ir::Inst& in) {
  // the texture helpers (tex_prelude.cpp) round filtered values with p2g_rnd32 and read f16 texels with the fact
  // P2G_HALF_CVT (f32_prelude.cpp)
  if (in.op == "tex" || in.op == "tld4" || in.op == "txq") {
    E.use("p2g_rnd32");
    E.use("p2g_half_cvt");
  }
  if (in.op == "tex") return emitTex(E, in);
  if (in.op == "tld4") return emitTld4(E, in);
  if (in.op == "txq" || in.op == "suq") return emitQuery(E, in);
  if (in.op == "suld" || in.op == "sust") return emitSurface(E, in);
  E.error(in, "'" + std::string(in.op) + "' (surface reductions) is not supported yet");
}

std::string texturePreludeFor(const ir::Function& f, const std::vector<ManifestImage>* images, bool checkForms) {
  bool tex = false, surf = false;
  for (auto& b : f.blocks)
    for (auto& in : b.insts) {
      if (in.op == "tex" || in.op == "tld4" || in.op == "txq") tex = true;
      if (in.op == "suld" || in.op == "sust" || in.op == "suq" || in.op == "sured") surf = true;
    }
  std::string s = texturePrelude(tex, surf);
  if (s.empty() || !images || images->empty()) return s;
  std::string decl = "// The image state of each image of the manifest (its slot), set by the runner (P2GImgState above).\n";
  for (const ManifestImage& im : *images) {
    if (im.slot >= kImageSpecSlots) break;
    std::string what = im.kind + " at parameter offset " + std::to_string(im.offset);
    decl += "layout(constant_id = " + std::to_string(kImageSpecId + im.slot) + ") const uint P2G_IMG" +
            std::to_string(im.slot) + " = 0u;  // " + what + "\n";
  }
  // the device-sampled texture slots (manifest.h deviceSampled): the runner binds an image at each
  std::string hw;
  bool dimsUsed[4] = {false, false, false, false};
  for (const ManifestImage& im : *images)
    if (deviceSampled(im)) {
      hw += "layout(set = 0, binding = " + std::to_string(im.slot) + ") uniform sampler" + std::to_string(im.dims) +
            "D " + hwSamplerName(im.slot) + ";\n";
      dimsUsed[im.dims] = true;
    }
  if (hw.empty()) return s + decl;
  decl += "// The same textures as images the device samples, where the runner sets a state's bit 30 (p2g_hw_on).\n" + hw;
  decl += "// tex/tld4 of those slots: the device's sampler where the state's bit 30 is set, the software helper elsewhere\n"
          "// (the state is a specialization constant: the driver keeps one of the two). tex: level 0, as the software\n"
          "// path; integer coordinates: the texel as stored inside the image, 0 outside (p2g_texi's rule), no sampler;\n"
          "// tld4: textureGather, whose order is tld4's, (i0, j1), (i1, j1), (i1, j0), (i0, j0) (Vulkan specification\n"
          "// \"Texel Gathering\"; PTX ISA \"tld4\"), with normalized coordinates only (Vulkan has no unnormalized gather).\n";
  for (int d = 2; d <= 3; ++d) {  // deviceSampled: 2D and 3D slots only
    if (!dimsUsed[d]) continue;
    std::string D = std::to_string(d), smp = "sampler" + D + "D hw";
    std::string soft = d == 2 ? "vec3(c, 0.0)" : "c", softi = d == 2 ? "ivec3(c, 0)" : "c";
    decl += "uvec4 p2g_tex" + D + "(" + smp + ", uint64_t h, uint s, vec" + D + " c) {\n"
            "  return p2g_hw_on(s) ? floatBitsToUint(textureLod(hw, c, 0.0)) : p2g_tex(h, s, " + soft + ", 0, " + D +
            "u);\n}\n";
    // the sampler's part of texi and tld4s, after each form's test of the state (shared by the three forms)
    std::string texiHw = "  return all(lessThan(uvec" + D + "(c), uvec" + D +
                         "(textureSize(hw, 0)))) ? floatBitsToUint(texelFetch(hw, c, 0)) : uvec4(0u);\n}\n";
    std::string gatherHw = "  vec4 g = comp == 0u ? textureGather(hw, c, 0) : comp == 1u ? textureGather(hw, c, 1)\n"
                           "         : comp == 2u ? textureGather(hw, c, 2) : textureGather(hw, c, 3);\n"
                           "  return floatBitsToUint(g);\n}\n";
    decl += "uvec4 p2g_texi" + D + "(" + smp + ", uint64_t h, uint s, ivec" + D + " c) {\n"
            "  if (!p2g_hw_on(s)) return p2g_texi(h, s, " + softi + ", 0, " + D + "u);\n" + texiHw;
    if (d == 2)
      decl += "uvec4 p2g_tld4s(sampler2D hw, uint64_t h, uint s, vec2 c, uint comp) {\n"
              "  if (!p2g_hw_norm(s)) return p2g_tld4(h, s, c, 0, comp);\n" + gatherHw;
    if (!checkForms) continue;
    // A guarded region (region_guard.cpp deviceTextureReads) reads its textures with these in its first pass
    // (_first) and its check (_chk): the device's sampler only. A slot the device does not sample gives zeros and
    // fails the pass's test (p2g_u = 0, p2g_m = 0), so the exact replay reads it in software, and only the replay
    // holds a software filter: lavapipe's compiler inlines every call before it folds away what its facts leave
    // dead (the checks' software reads cost 12 s of K's pipeline there: docs/GPU_BENCH.md, 2026-12-07).
    for (const char* form : {"_first", "_chk"}) {
      std::string F = form, fail = std::string("{ ") + (F == "_chk" ? "p2g_m = 0.0" : "p2g_u = 0u") +
                                   "; return uvec4(0u); }\n";
      decl += "uvec4 p2g_tex" + D + F + "(" + smp + ", uint64_t h, uint s, vec" + D + " c) {\n"
              "  if (!p2g_hw_on(s)) " + fail + "  return floatBitsToUint(textureLod(hw, c, 0.0));\n}\n";
      decl += "uvec4 p2g_texi" + D + F + "(" + smp + ", uint64_t h, uint s, ivec" + D + " c) {\n"
              "  if (!p2g_hw_on(s)) " + fail + texiHw;
      if (d == 2)
        decl += "uvec4 p2g_tld4s" + F + "(sampler2D hw, uint64_t h, uint s, vec2 c, uint comp) {\n"
                "  if (!p2g_hw_norm(s)) " + fail + gatherHw;
    }
  }
  return s + decl;
}

}  // namespace p2g

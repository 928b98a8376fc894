// GLSL emission from validated IR.
//
// The emitter walks the structured tree (passes/structurize) and, for each instruction, calls the handler that
// the instruction table (table.cpp) names for its opcode. Handlers live in one file per instruction family
// (emit_int.cpp, emit_float.cpp, emit_cvt.cpp, emit_mem.cpp) and use the small API below: read an operand as a
// PTX type, store an expression into a destination, ask for a prelude helper, report what cannot be done exactly.
#pragma once
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir.h"
#include "manifest.h"
#include "shared64.h"
#include "structurize.h"

namespace p2g {

class HandleTracer;

// A PTX instruction type (the `.s32` in `add.s32`) and how the emitter holds a value of it.
struct Ty {
  enum class K : uint8_t { None, B, U, S, F, Pred, F16, BF16, F16x2, BF16x2, E4M3x2, E5M2x2 } k = K::None;
  unsigned bits = 0;
  bool isInt() const { return k == K::B || k == K::U || k == K::S; }
  bool isFloat() const { return k == K::F; }
  bool isHalfLike() const { return k == K::F16 || k == K::BF16 || k == K::F16x2 || k == K::BF16x2; }
  bool isSigned() const { return k == K::S; }
  bool operator==(const Ty& o) const { return k == o.k && bits == o.bits; }
};
Ty parseTy(std::string_view m);   // "s32" -> {S,32}; unknown -> K::None
// The instruction's type: the last modifier that names a type (ld.global.nc.v4.f32 -> f32); K::None when none.
Ty instrType(const ir::Inst& in);
std::string glslOf(Ty t);         // the GLSL type a value of `t` is held in
unsigned regDeclBits(std::string_view ptxType);  // a register's declared width (pred 1, b8/u8/s8 8, ...)
// The bits of a float expression, `floatBitsToUint(f)`, and the float of bits, `uintBitsToFloat(u)`, without the
// round trip: the bits of `uintBitsToFloat(u)` are `u` (a bit cast changes no bit).
std::string bitsOf(const std::string& f);
std::string floatOf(const std::string& u);

// How a ld/st reaches memory: Weak (no qualifier, .weak, cache operators) or Volatile (ld.volatile/st.volatile:
// relaxed atomics, the comment above Emitter::load in emit_mem.cpp). Chosen by the instruction's modifiers, which
// the instruction table (table.cpp) admits.
enum class MemOrder { Weak, Volatile };

struct EmitOptions {
  bool annotate = true;   // PTX source lines as comments
  bool native = false;    // use device operations where measured identical (not the exact lowering)
  bool checkBounds = false;  // check every memory access in the shader (check_bounds.h; `ptx2glsl run --check-bounds`)
  // `ptx2glsl translate --names FILE` (docs/READABLE_GLSL.md): parameter-block offset -> the user's name for the
  // value read there and its PTX type ("f32", "u64", ...). Names only: the bytes read do not change.
  struct ParamName {
    std::string name, type;
  };
  std::map<uint64_t, ParamName> paramNames;
  std::string namesFile;  // for messages
};
// Reads a --names file (docs/READABLE_GLSL.md) into `out`; on error returns false with `err` naming the file.
bool readNamesFile(const std::string& path, std::map<uint64_t, EmitOptions::ParamName>& out, std::string& err);
// True when `s` can name a GLSL variable: an identifier that is no GLSL keyword, reserved word or built-in
// function name, and has no reserved prefix (gl_, p2g_, P2G, two underscores).
bool isFreeGlslName(const std::string& s);

class Emitter {
 public:
  Emitter(const ir::Function& f, const ptx::SourceManager& sm, ptx::DiagEngine& diags, const EmitOptions& opt)
      : F(f), sm_(sm), diags_(diags), opt_(opt) {}

  // Produces the whole GLSL compute shader, or returns false (errors in diags).
  bool emit(const StructurizeResult& tree, std::string& glsl, std::vector<std::string>& features,
            std::vector<std::string>& warnings);

  // ---- API for instruction handlers ----
  const ir::Function& F;
  std::string src(const ir::Opnd& o, Ty t);                 // operand value as type t
  void store(const ir::Opnd& dst, Ty t, const std::string& expr);
  void line(const std::string& s);                          // one statement at the current indent
  void open(const std::string& s);                          // "s {" and indent
  void close();                                             // "}"
  void orElse();                                            // "} else {"
  // A fresh local of t's GLSL type. Its declaration waits for the first statement that names it: when that
  // statement assigns it at the declaration's scope, the two become one (`uint t3 = ...;`).
  std::string tmp(Ty t);
  std::string tmpOf(const std::string& glslType);
  std::string tmpArray(Ty t, unsigned n);                   // a fresh local array of n elements of t's type
  // A value the handler reads more than once or after writing a destination: `expr` itself when it is a literal or
  // a register (or one conversion of one) that the current instruction does not write, else a fresh local
  // initialised with it. Saves the operand copies (`t1 = 9u; ... t1 ...`) that only move a value.
  std::string let(Ty t, const std::string& expr);
  std::string letOf(const std::string& glslType, const std::string& expr);
  void use(const std::string& helper);                      // pulls a prelude helper (and its dependencies)
  void feature(const std::string& f) { features_.insert(f); }
  void error(const ir::Inst& in, const std::string& msg);
  void warnInexact(const ir::Inst& in, const std::string& why);  // emitted, but not bit-exact yet
  std::string regName(int r) const { return F.regs[r].name; }
  std::string lit(Ty t, int64_t v);                         // integer literal of type t
  std::string floatLit(uint32_t bits);
  std::string doubleLit(uint64_t bits);
  // Memory: address of an operand in its state space (uint64_t for global/param/generic, uint for the windows).
  std::string addressOf(const ir::Opnd& o, ptx::Space space);
  // `order`: MemOrder::Volatile for ld.volatile/st.volatile (the comment above Emitter::load in emit_mem.cpp).
  std::string load(ptx::Space space, const std::string& addr, unsigned bits,
                   MemOrder order = MemOrder::Weak);  // -> uint (<=32) or uint64_t
  void storeMem(ptx::Space space, const std::string& addr, unsigned bits, const std::string& valueBits,
                MemOrder order = MemOrder::Weak);
  ptx::Space spaceOf(const ir::Inst& in) const;             // from the modifiers; Generic when none
  bool genericMayBeWindow() const { return usesWindowCvta_; }
  const EmitOptions& options() const { return opt_; }
  // 64-bit shared layout (shared64.h): the smem64 element for a shared access whose variable moved there, or "".
  std::string wideSharedElem(const ir::Inst& in, const std::string& addr);
  // Names (docs/READABLE_GLSL.md). namedParam: the name of the kernel parameter value of type t at byte `offset`
  // of the parameter block (a const local that main() reads once), or "" when loads of other types overlap it
  // (then the access stays a raw read of pc.params). paramLabel: how a comment names the parameter at `offset`.
  // sharedName: the const that holds a .shared variable's byte offset.
  std::string namedParam(uint64_t offset, Ty t);
  bool paramLoadOffset(const ir::Inst& in, uint64_t& offset) const {
    auto it = paramLoads_.find(&in);
    if (it == paramLoads_.end()) return false;
    offset = it->second;
    return true;
  }
  std::string paramLabel(uint64_t offset);
  HandleTracer& handles();  // traces image handles to their parameters (handles.h), made once per function
  // The kernel's images (the manifest's `images`, translate.cpp), for the image-state specialization constant of
  // each texture/surface instruction (emit_tex.cpp); none when not set.
  void setImages(const std::vector<ManifestImage>& im) { images_ = &im; }
  const std::vector<ManifestImage>* images() const { return images_; }
  std::string sharedName(int var);
  // What src() returned for a register: its folded value when it is a fold's marker, else `v` itself.
  std::string foldedValue(const std::string& v) const;
  // SFU model tables the shader reads (sfu_prelude.cpp), in directory-slot order, and the byte offset of the
  // directory in the module-globals buffer (after the .global variables). Valid after emit().
  const std::vector<std::string>& sfuTables() const { return sfuTables_; }
  uint32_t sfuDir() const { return sfuDir_; }
  // lavapipe's loop budget guard (kernels with loops only): the byte offset of its counter word in the
  // module-globals buffer, after the SFU directory; -1 when the kernel has no loop. Valid after emit().
  int64_t loopGuardAt() const { return loopGuardAt_; }
  // Warp model (docs/WARP.md, warp_flow.cpp): inside a warp instruction's handler, the GLSL bool that says whether
  // this lane executes the instruction (the enclosing structure's active flag and the instruction's guard). Under
  // the shared-memory emulation every lane of the warp reaches the handler and only these lanes take part.
  const std::string& warpActive() const { return warpAct_; }
  // A barrier's thread count operand: it must be an immediate equal to the block's thread count (.reqntid), or,
  // without .reqntid, one count for every barrier of the kernel, which the runtime checks at launch
  // (blockThreads()). Reports the error and returns false otherwise.
  bool barrierCount(const ir::Inst& in, const ir::Opnd& count);
  // Whether register `reg` (an f16/f16x2 fma's destination) reaches the addend of an f16/f16x2 fma, directly or
  // through mov (packs and unpacks included) and selp: such results keep the f16 variant's opaque barrier
  // (f32_prelude.cpp, p2g_hfma / p2g_hfma_end).
  bool halfFmaAddend(int reg);
  uint32_t blockThreads() const { return blockThreads_; }

 private:
  const ptx::SourceManager& sm_;
  ptx::DiagEngine& diags_;
  EmitOptions opt_;
  std::string body_;
  std::string replays_;  // the exact replays of guarded regions (region_guard.h), functions placed before main()
  int indent_ = 1;
  int tmpCount_ = 0;
  std::set<std::string> helpers_, features_;
  std::vector<std::string> warnings_;
  std::set<std::string> warnedOps_;
  bool ok_ = true;
  bool usesWindowCvta_ = false;
  bool usesShared_ = false, usesLocal_ = false, usesConst_ = false, usesGlobals_ = false;
  uint32_t lastLine_ = 0;
  std::string note_;  // annotate()'s line, kept between calls
  std::unordered_map<uint32_t, std::string> floatLits_;  // floatLit()'s text by bits
  Shared64Layout s64_;
  std::vector<std::string> sfuTables_;
  uint32_t sfuDir_ = 0;
  bool hasLoops_ = false;
  int64_t loopGuardAt_ = -1;
  uint32_t blockThreads_ = 0;  // the thread count barriers name (0: none)
  // names (names.cpp)
  struct ParamSlot {
    Ty t;
    bool ok = true;       // no load of another type overlaps it
    int var = -1;         // the PTX parameter
    std::string name, init;
    bool used = false;
  };
  std::map<uint64_t, ParamSlot> params_;
  std::map<const ir::Inst*, uint64_t> paramLoads_;  // ld.param at a constant offset -> that offset in the block
  std::map<int, std::string> sharedNames_;  // .shared variable -> the const holding its offset
  std::set<int> sharedUsed_;
  std::vector<bool> halfAddend_;  // per register, filled by the first halfFmaAddend call
  void planNames();
  std::string paramDeclarations() const;
  std::string sharedDeclarations() const;
  // warp model (warp_flow.cpp)
  struct WarpLoop {
    std::string actL, actI;   // lanes still looping; lanes active in this iteration
    size_t depth;             // actStack_ size at the loop body
  };
  bool warpKernel_ = false;                 // the function has warp instructions
  std::map<const SNode*, uint8_t> warpInfo_;  // bit 0: contains a warp instruction; bit 1: needs active flags
  std::vector<std::string> actStack_;       // active-flag variables, innermost last ("true" at the root)
  std::vector<WarpLoop> warpLoops_;         // enclosing loops that contain warp instructions
  std::string warpAct_ = "true";
  int actCount_ = 0;
  uint8_t planWarp(const SNode& n, bool inWarpLoop);
  void emitWarpNode(const SNode& n, const StructurizeResult& tree);
  void emitWarpBlock(int b);
  void emitWarpLoopExit(bool isBreak);
  std::string warpDeclarations() const;

  // Temporaries whose declaration waits for their first statement (tmpOf): the name, the declaration, the indent
  // and where in body_ the declaration goes when that statement is not an assignment at the same scope.
  struct PendingTmp {
    std::string name, decl;
    int indent;
    size_t at;
  };
  std::vector<PendingTmp> pendingTmps_;
  void appendLine(const std::string& s);  // the statement at the current indent, as it is
  void settleTmps(const std::string& statement);
  void dropPendingTmps(int fromIndent);
  void declarePending(size_t i);
  // Expression folding (fold.h): a register defined once and used once in the same block is not assigned; its
  // value is written into its use. store() of such a register keeps the expression (folds_) and leaves a marker
  // line in body_; its use reads a marker that stands for the expression. When emission is done, a marker read
  // exactly once becomes the expression, and any other fold goes back to an assignment at its definition.
  struct Fold {
    size_t indent;       // of the assignment the fold replaces (assignText), in spaces
    std::string expr;    // the value, parenthesised
    int reg;
    bool parenthesised;  // expr is the value in parentheses (else the value itself)
    bool forced = false; // a statement followed the store() in its instruction: always assigned
  };
  // The assignment fold k replaces, with its indent: made only for the folds that stay assigned.
  std::string assignText(size_t k) const;
  std::vector<uint8_t> foldable_;   // per register: fold.h's verdict (kFoldable, kDead or 0)
  std::vector<int> liveFold_;       // per register: index into folds_ of its pending value, -1 none
  std::vector<Fold> folds_;
  const ir::Inst* cur_ = nullptr;   // the instruction being emitted
  std::vector<int> holdRegs_;       // registers whose store() this instruction may keep as a fold (or drop: kDead)
  std::vector<int> heldFolds_;      // the folds store() kept in this instruction; assigned if a statement follows
  bool foldHere_ = false;           // folding applies to the block being emitted (not the warp model's blocks)
  int afterBlock_ = -1;             // the block whose last instruction body_ ends with (setp + branch)
  size_t afterBlockAt_ = 0;
  void resolveFolds();
  void selectDiamond(size_t at);
  bool safeOnBothPaths(const std::string& v, int depth) const;  // an if/else of one assignment each as a select (emitter.cpp)
  void placeDeclarations();
  // Register numbers by GLSL name, for the passes over the body's text (guardRegions' types, placeDeclarations):
  // open addressing in one array (a hash map's node per register cost more than the scan of the body), FNV-1a
  // hashes, linear probing; a name given to several registers finds the first. Built by buildRegNames().
  std::vector<int> regSlot_;
  void buildRegNames();
  int regNamed(std::string_view n) const;  // -1: no register
  std::shared_ptr<HandleTracer> handles_;
  const std::vector<ManifestImage>* images_ = nullptr;
  std::vector<uint8_t> regPlace_;   // per register: 0 declared at the top of main, 1 at its first assignment, 2 unused
  void assignReg(int r, const std::string& value);
  std::string readName(int r);      // a register read by its name, outside src(): its fold goes back to a statement
  bool writesInCurrent(const std::string& name) const;

  void emitNode(const SNode& n, const StructurizeResult& tree);
  static std::string loopGuardText(uint32_t flagAt);
  void emitBlock(int b);
  void emitInst(const ir::Inst& in, bool warpOp = false);
  void annotate(const ptx::Span& span);
  std::string condExpr(const SCond& c);
  std::string regAs(int r, Ty t);
  std::string header();
  std::string declarations();
  void scan();
};

// The state space an ld/st really uses: .param variables declared in a function body (call arguments and results
// of inlined calls) live in the private .local window (emit_mem.cpp).
ptx::Space effectiveSpace(Emitter& E, ptx::Space sp, const ir::Opnd& addr);
// The vector width of an ld/st (.v2, .v4, .v8), 1 for a scalar access.
unsigned vecWidth(const ir::Inst& in);

// Instruction table: opcode -> handler. Returns nullptr when the opcode has no lowering.
using Handler = void (*)(Emitter&, const ir::Inst&);
Handler findHandler(std::string_view opcode);
std::vector<std::string> handledOpcodes();

// Family handlers (one file each).
void emitIntArith(Emitter&, const ir::Inst&);    // add sub mul mad mul24 mad24 sad div rem abs neg min max (int)
void emitBits(Emitter&, const ir::Inst&);        // and or xor not cnot shl shr popc clz brev bfe bfi bfind prmt shf lop3
void emitCarry(Emitter&, const ir::Inst&);       // add.cc addc sub.cc subc mad.cc madc
void emitFloatArith(Emitter&, const ir::Inst&);  // float add sub mul fma mad div sqrt rcp rsqrt min max abs neg ...
void emitCompare(Emitter&, const ir::Inst&);     // setp set selp slct testp
void emitCvt(Emitter&, const ir::Inst&);         // cvt cvt.pack
void emitMov(Emitter&, const ir::Inst&);         // mov
void emitMemory(Emitter&, const ir::Inst&);      // ld ldu st cvta prefetch
void emitAtomic(Emitter&, const ir::Inst&);      // atom red
void emitSync(Emitter&, const ir::Inst&);        // bar barrier membar fence
void emitMma(Emitter&, const ir::Inst&);         // mma.sync with a warp of 32 (emit_mma.cpp)
void emitWarp(Emitter&, const ir::Inst&);        // shfl vote match redux activemask bar.warp, warp of 32 (emit_warp.cpp)
void emitVideo(Emitter&, const ir::Inst&);       // dp4a dp2a vadd vsub vabsdiff vmin vmax vshl vshr vset (emit_video.cpp)
void emitTensor(Emitter&, const ir::Inst&);      // ldmatrix stmatrix movmatrix wmma cp.async (emit_tensor.cpp)
bool isWarpInstruction(const ir::Inst& in);      // handled by emitWarp: takes part in the warp model
bool isWarpSync(const ir::Inst& in);             // bar.warp.sync (a bar form, lowered by emitWarp)
void emitImage(Emitter&, const ir::Inst&);       // tex tld4 txq suld sust suq (emit_tex.cpp)
// The texture/surface helpers (tex_prelude.cpp) a function with image instructions needs, placed before the
// guarded regions' replays and main() by Emitter::emit; "" when it has none.
std::string texturePrelude(bool textures, bool surfaces);
// The texture/surface helpers the function needs, and one image-state specialization constant per slot of
// `images` (emit_tex.cpp, docs/TEXTURES.md "Image state"); with `checkForms` also the device-only forms that a
// guarded region's first pass and check read textures with (p2g_tex2_first, p2g_tex2_chk ...: region_guard.cpp
// deviceTextureReads).
std::string texturePreludeFor(const ir::Function& f, const std::vector<ManifestImage>* images, bool checkForms);
// The GLSL global that texturePreludeFor declares as the sampler of a device-sampled texture slot (p2g_hw<slot>);
// tex/tld4 pass it to their helpers, and the region pass must know it as a global (Emitter::emit).
inline std::string hwSamplerName(uint32_t slot) { return "p2g_hw" + std::to_string(slot); }

// Prelude: GLSL helper functions by name, with their dependencies; deterministic order.
struct PreludeHelper {
  std::string name;
  std::vector<std::string> deps, features;
  std::string text;
};
std::vector<PreludeHelper> sfuHelpers();   // sfu_prelude.cpp: the SFU models (tables in the globals buffer)
std::string preludeText(const std::set<std::string>& names, std::set<std::string>& features);

}  // namespace p2g

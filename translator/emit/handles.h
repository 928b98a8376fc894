// Texture and surface handles: where each one comes from.
//
// In PTX a texture/surface object is a 64-bit value: nvcc loads it from a `.param .u64` kernel parameter or from a
// field of a `.param .align 8 .b8 P[N]` parameter block, then passes it in a register to tex/tld4/txq/suld/sust/
// suq. The runtimes put a descriptor-record address there (docs/TEXTURES.md), so the generated code only needs the
// register; this analysis exists to tell runners and readers which parameter-block offsets hold which kind of
// image and how the kernel uses it (the manifest's `images`), and to refuse a handle whose origin cannot be
// proved statically (read from memory, computed), since no runner could then know what to put where.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ir.h"
#include "manifest.h"
#include "source.h"

namespace p2g {

// True for the opcodes that take a texture or surface handle operand.
bool isImageOpcode(std::string_view op);
// True when the instruction's handle names a surface (suld, sust, sured, suq), false for a texture.
bool isSurfaceOpcode(std::string_view op);

// Index of the handle operand of an image instruction (`[h, {coords}]` of tex/suld/sust, `[h]` of txq/suq).
int imageHandleOperand(const ir::Inst& in);

// The source of one handle value: a parameter-block offset, or a module variable (.texref/.surfref).
struct HandleSource {
  bool isTexref = false;
  uint32_t offset = 0;       // byte offset in the parameter block
  std::string param;         // the PTX parameter
  std::string texref;        // the module variable
  bool operator<(const HandleSource& o) const {
    return isTexref != o.isTexref ? isTexref < o.isTexref : offset != o.offset ? offset < o.offset : texref < o.texref;
  }
};

// Traces the handle register `reg` back through mov, ld.param (at a constant offset, also through address
// arithmetic of mov/add/sub/cvta of constants) to its sources. Returns false with `why` naming the instruction
// that stops the trace.
bool traceHandle(const ir::Function& f, int reg, std::vector<HandleSource>& out, std::string& why);

// traceHandle for many registers of one function: the function's definitions are collected once (the emitter
// names the image of every texture and surface instruction; a tracer per instruction made that quadratic).
class HandleTracer {
 public:
  explicit HandleTracer(const ir::Function& f);
  ~HandleTracer();
  bool trace(int reg, std::vector<HandleSource>& out, std::string& why);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Every ld/ldu.param that reads a kernel parameter at a constant offset, named directly (`[p+8]`) or through a
// register holding the parameter's address plus constants (mov/cvta/add/sub, as traceHandle follows them): the
// instruction -> the parameter variable and the byte offset in it (element 0 of a vector load).
std::map<const ir::Inst*, std::pair<int, int64_t>> constantParamLoads(const ir::Function& f);

// Resolves every image instruction of `f` into the manifest map (sorted by offset, slots numbered). An
// unresolvable handle is an error at its instruction. Returns false when any error was reported.
bool resolveImageHandles(const ir::Function& f, ptx::DiagEngine& diags, std::vector<ManifestImage>& out);

// The parameter-block map (manifest "paramMap"): every ld.param at a constant offset, by offset, with what the
// loaded value is: "texture"/"surface" (an image handle, as in `images`), "buffer" (a 64-bit value that reaches
// the address of a global/generic memory access through mov/cvta/add), or "scalar"; `uses` names the instructions
// that consume it (for a buffer, the memory accesses). Loads whose address is not constant are left out.
// `sites`, when given, receives per offset the ld.param instructions that read it and the instructions counted as
// its uses (for the parameter card, ptx2glsl card: their PTX lines).
struct ParamFieldSites {
  std::vector<ptx::Span> loads;
  std::vector<ptx::Span> uses;
};
void mapParamBlock(const ir::Function& f, const std::vector<ManifestImage>& images, std::vector<ManifestParamField>& out,
                   std::map<uint32_t, ParamFieldSites>* sites = nullptr);

}  // namespace p2g

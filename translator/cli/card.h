// The parameter-block card of a kernel: what each byte offset of its .param space holds and how the kernel uses
// it. Built from the translator's own analysis (translator/emit/handles.h: resolveImageHandles for textures and
// surfaces, mapParamBlock for buffers and scalars), on the lifted IR before any pass runs.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ast.h"
#include "manifest.h"
#include "source.h"

namespace p2g::cli {

struct CardField {
  ManifestParamField field;            // offset, bytes, PTX type, kind, consuming forms
  std::string param;                   // the .param it lies in
  unsigned loads = 0;                  // ld.param instructions reading it
  std::vector<uint32_t> loadLines;     // their PTX lines
  std::vector<uint32_t> useLines;      // lines of the uses counted in field.uses
};

struct Card {
  std::string entry, ptx;
  uint32_t paramBytes = 0;
  std::vector<ManifestParam> params;
  std::vector<CardField> fields;
  std::vector<ManifestImage> texrefs;  // textures/surfaces named by module variables, not by the block
  std::vector<std::string> notes;      // handles that could not be traced, with the reason
};

// Lifts `fn` (an entry of `mod`, parsed from a buffer of `sm`) and builds its card. Returns false when the entry
// cannot be lifted (the diagnostics say why).
bool buildCard(const ptx::SourceManager& sm, const ptx::Module& mod, const ptx::Function& fn, const std::string& ptxName,
               ptx::DiagEngine& diags, Card& out);

// "loaded once; as a texture in tex.2d.v4.f32.s32"
std::string cardUsage(const CardField& f);

std::string cardMarkdown(const Card& c);
std::string cardJson(const Card& c);

// The offsets of each kind, "200, 224, 232" (the card's summary line).
std::string offsetsOfKind(const Card& c, const std::string& kind);

}  // namespace p2g::cli

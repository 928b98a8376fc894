// The kernel's `.param` block: validation of a case's params against the PTX layout, and the exact bytes.
//
// Every runner (Vulkan and CUDA) builds the block with this one function, so both see the same bytes.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "case.h"
#include "manifest.h"

namespace p2g {

// Checks the case's params (and outputs) against the PTX parameter layout, before anything is launched:
// count, scalar size == PTX size, pointers and handles on 8-byte params, struct size == PTX array size, struct
// fields inside the block and not overlapping, names of buffers/textures/surfaces, buffer offsets within the
// buffer. The message names the parameter ("params[2] (_Z3addPfS_i_param_2): u32 given for a 8-byte .u64 param").
bool validateParams(const CaseSpec& c, const std::vector<ManifestParam>& layout, std::string& err);

// Address (or handle) of a named resource: kind is 'b' buffer, 't' texture, 's' surface.
using AddressFn = std::function<uint64_t(char kind, const std::string& name)>;

// Builds the block: `blockBytes` long (the manifest's paramBytes, or the end of the last param when 0), each
// param at its layout offset, unspecified bytes zero, pointers = address + offset. Validates first.
bool buildParamBlock(const CaseSpec& c, const std::vector<ManifestParam>& layout, uint32_t blockBytes,
                     const AddressFn& addressOf, std::vector<uint8_t>& out, std::string& err);

}  // namespace p2g

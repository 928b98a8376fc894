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

// Checks the case's values against what the kernel does with them (the translator's manifest), so that a case
// that lies about a parameter is refused instead of crashing the runner or comparing garbage:
//   - a parameter or struct field the kernel uses as a memory address (`isPtr`, or paramMap kind "buffer") takes
//     only a buffer, and a struct field the kernel uses that way must be given;
//   - a texture/surface handle (paramMap kind "texture"/"surface", the manifest's images) takes only a texture or
//     only a surface, whose dimensions and layering match the instructions that use it;
//   - a scalar parameter's kind matches its PTX type: .fN takes fN, .uN/.sN an integer of N bits (u or s: nvcc
//     declares a C `int` parameter .u32), .bN anything of N bits. Scalar struct fields are not checked this way:
//     kernels load fields with types that say nothing of their meaning (rrlite/k_output loads an f16 field with
//     ld.param.u16 and uses it in sub.f16).
// Called after validateParams (sizes and layout).
bool validateAgainstKernel(const CaseSpec& c, const Manifest& m, std::string& err);

// Address (or handle) of a named resource: kind is 'b' buffer, 't' texture, 's' surface.
using AddressFn = std::function<uint64_t(char kind, const std::string& name)>;

// Builds the block: `blockBytes` long (the manifest's paramBytes, or the end of the last param when 0), each
// param at its layout offset, unspecified bytes zero, pointers = address + offset. Validates first.
bool buildParamBlock(const CaseSpec& c, const std::vector<ManifestParam>& layout, uint32_t blockBytes,
                     const AddressFn& addressOf, std::vector<uint8_t>& out, std::string& err);

}  // namespace p2g

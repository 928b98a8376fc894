// The .param space of an entry point laid out as PTX and the CUDA driver do.
//
// Each parameter is placed at the next multiple of its alignment, in declaration order:
//   alignment = max(natural alignment of the element (vector size for .v2/.v4), the `.align N` given);
//   `.param .align 16 .b8 s[64]` (a struct by value) has element .b8, so its alignment is the .align given, or 1.
// The result feeds the manifest (runtime/common/manifest.h), which every runner uses to fill the parameter block.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ast.h"
#include "manifest.h"

namespace ptx {

// Returns one ManifestParam per parameter of `f`. On a parameter whose size cannot be laid out (unknown type,
// unsized array, a block over 4 GiB) it stops, sets `*err` when given, and returns the parameters before it.
std::vector<p2g::ManifestParam> computeParamLayout(const Function& f, std::string* err = nullptr);

// Size of the parameter block: the end of the last parameter (0 for none).
uint32_t paramBlockBytes(const std::vector<p2g::ManifestParam>& params);
uint32_t paramBlockBytes(const Function& f);

}  // namespace ptx

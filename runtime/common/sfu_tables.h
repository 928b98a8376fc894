// The SFU model tables (docs/SFU.md) as the runtime places them in a shader's globals buffer (manifest
// "sfuTables"; translator/emit/sfu_prelude.cpp reads them). The tables are files written by
// ptx_corpus/sfu/tools/gen.cpp ("PSFU" blobs); they are looked up in
//   1. $PTX2GLSL_SFU_TABLES (a blob, or a folder of sfu_tables*.bin),
//   2. the source tree's ptx_corpus/sfu/models (compiled in),
//   3. ptx_corpus/sfu/models under the current folder.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace p2g {

// Lays out the named tables one after the other, each 16-byte aligned, as `image` (to be copied at some base
// offset of the buffer); `offsets[i]` is table i's offset inside `image`. A table in the image is its blob record
// without the name: int32 k, scale, nexc, pad, then 3 << k coefficients (8 bytes each), then the exceptions.
// False with `err` when a table is unknown or a blob is malformed.
bool layoutSfuTables(const std::vector<std::string>& names, std::vector<uint8_t>& image,
                     std::vector<uint32_t>& offsets, std::string& err);

}  // namespace p2g

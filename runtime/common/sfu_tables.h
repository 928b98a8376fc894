// The SFU model tables (docs/SFU.md) as the runtime places them in a shader's globals buffer (manifest
// "sfuTables"; translator/emit/sfu_prelude.cpp and sfu_prelude2.cpp read them). The tables are files written by
// ptx_corpus/sfu/tools/gen.cpp ("PSFU" and "PSF2" blobs, all sfu_tables*.bin of a folder), kept in the source tree
// in translator/sfu/tables and installed to PREFIX/share/ptx2glsl. They are read from
//   1. $PTX2GLSL_SFU_TABLES when set (a blob, or a folder of sfu_tables*.bin), and then only from there;
//   2. else <folder of the executable>/../share/ptx2glsl (found through /proc/self/exe; the build tree has a copy
//      at build/share/ptx2glsl), which must hold sfu_tables.bin and sfu_tables2.bin.
// Nothing is read from the current folder or the source tree. A missing file is an error naming the places tried.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace p2g {

// The bucket index of a PSFU table (below; sfu_prelude.cpp p2g_sfu_core searches one bucket in 9 halving steps):
// buckets of 2^11 inputs, at most 511 exceptions each (the densest now: RSQRT0, 419).
constexpr uint32_t kSfuBucketShift = 11;
constexpr uint32_t kSfuBucketMax = 511;

// Lays out the named tables one after the other, each 16-byte aligned, as `image` (to be copied at some base
// offset of the buffer); `offsets[i]` is table i's offset inside `image`. A table in the image is its blob record
// without the name (the shader reads it in place: sfu_prelude.cpp, sfu_prelude2.cpp); all fields little-endian:
//   PSFU tables (sfu_tables.bin: RCP, RSQRT0/1, SQRT0/1, EX2P/N):
//     +0 int32 k, scale, nexc, pad; +16 3 << k doubles (c0, c1, c2 per segment); then nexc uint exceptions
//     (index << 8 | int8 correction, sorted by index) padded to an even count; then the bucket index, added when
//     the file is read: 2^(23 - kSfuBucketShift) + 1 uint, entry b the first exception whose index is at least
//     b << kSfuBucketShift (the last entry nexc), so bucket b's exceptions are [entry b, entry b + 1).
//   PSF2 interpolator tables (sfu_tables2.bin: SINP, LG2P):
//     +0 int32 k, n, F | OB << 8 | col << 16, 1 << 30; +16 3 << k int64 (C0, C1, C2 per segment).
//   PSF2 fitted tables (sfu_tables2.bin: TANH_M8 .. TANH_P2):
//     +0 int32 k, n, nexc, rbits | rz << 8 | nfull << 12; +16 3 << k doubles; then the dense residual words
//     (rbits = 0: none; else ceil(2^n * rbits / 32) rounded up to an even count); then nexc uint exceptions
//     (index << 8 | int8 correction, 0x80: whole value) padded to an even count; then nfull (index, f32 bits)
//     uint pairs.
// Every 8-byte array is 8-byte aligned. False with `err` when a table is unknown or a table file is malformed.
bool layoutSfuTables(const std::vector<std::string>& names, std::vector<uint8_t>& image,
                     std::vector<uint32_t>& offsets, std::string& err);

}  // namespace p2g

// Textures and surfaces of a case (CASE_FORMAT.md "textures"/"surfaces"; docs/TEXTURES.md is the long form):
// texel formats, sampler state, and the 64-byte descriptor record that generated shaders read through a handle.
//
// Why a descriptor record and not a Vulkan image: exact mode does every fetch, address-mode rule and filter weight
// itself (HAZARDS.md #11, #12), so the shader needs the texels as bytes and the sampler state as data. A texture or
// surface handle in the parameter block is therefore the device address of its record, exactly as a buffer pointer
// is the address of the buffer: no descriptor sets, and handles may flow through registers like CUDA's objects.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "case.h"

namespace p2g {

// Format codes stored in descriptor records (the GLSL prelude of translator/emit/emit_tex.cpp decodes them).
enum class TexFormat : uint32_t {
  R8 = 0, RG8, RGBA8, R16F, RG16F, RGBA16F, R32F, RG32F, RGBA32F, R32UI, R11G11B10F, Count
};
// Address modes and filters use CUDA's driver-API numbering (CUaddress_mode, CUfilter_mode), so the records and
// the CUDA reference runner speak the same values.
enum class TexAddress : uint32_t { Wrap = 0, Clamp = 1, Mirror = 2, Border = 3 };
enum class TexFilter : uint32_t { Point = 0, Linear = 1 };

struct FormatInfo {
  const char* name;
  uint32_t channels;      // 1, 2 or 4 (r11g11b10f is stored as one 32-bit channel: see docs/TEXTURES.md)
  uint32_t channelBytes;  // 1, 2 or 4
  bool isFloat;           // f16/f32 channels
  bool isUnorm;           // 8-bit unorm: read as normalized floats
};
bool parseTexFormat(const std::string& s, TexFormat& out);
const FormatInfo& formatInfo(TexFormat f);
inline uint32_t texelBytes(TexFormat f) { return formatInfo(f).channels * formatInfo(f).channelBytes; }

bool parseTexAddress(const std::string& s, TexAddress& out);  // "clamp" "wrap" "mirror" "border"
bool parseTexFilter(const std::string& s, TexFilter& out);    // "point" "linear"

// The size in texels of an image: 1D images have height 1, 2D depth 1; layered images count layers as depth.
uint64_t imageTexels(const ImageSpec& s);
uint64_t imageBytes(const ImageSpec& s);
// How many dimensions the image has (1, 2 or 3; layers are not a dimension).
uint32_t imageDims(const ImageSpec& s);

// The descriptor record (64 bytes, little-endian), the ABI between runtimes and generated shaders:
//    0 u64 texels     device address of the tightly packed texels (rows, then slices/layers)
//    8 u32 width      12 u32 height (1 for 1D)      16 u32 depth (1 for 2D; layers when layered)
//   20 u32 format (TexFormat)   24 u32 texel bytes   28 u32 row pitch (bytes)   32 u32 slice pitch (bytes)
//   36 u32 filter (TexFilter)   40/44/48 u32 address mode per axis (TexAddress)   52 u32 normalized (0/1)
//   56 u32 flags: bit 0 layered, bit 1 surface; bits 8..9 dimensions        60 u32 channels
constexpr uint32_t kImageRecordBytes = 64;
std::vector<uint8_t> imageRecord(const ImageSpec& s, bool surface, uint64_t texelAddress);

// A record's image state: what a runner tells the shader of an image when it creates the pipeline, as the
// specialization constant P2G_IMG<slot> (id manifest.h kImageSpecId + the manifest image's slot; decoded by
// p2g_img_state in translator/emit/tex_prelude.cpp, docs/TEXTURES.md "Image state"). Made from the record's own
// words, so the shader sees the same values either way: bit 31 set; bits 0..3 format, 4..6 channels, 8..10 bytes per
// channel, 12 filter, 13..14 / 15..16 / 17..18 address mode of axis 0 / 1 / 2, 19 normalized, 20..29 flags.
// 0 (unknown: the shader reads the record) when a word does not fit its field or the record is short.
uint32_t imageState(const std::vector<uint8_t>& record);

// Validates an image's sampler state and size (called by the case loader; messages name the field).
bool checkImageSpec(const ImageSpec& s, bool texture, const std::string& path, std::string& err);

}  // namespace p2g

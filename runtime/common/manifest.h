// The manifest: what the translator tells every runner about one translated entry point.
//
// Shader ABI (what generated GLSL expects from a runtime; docs/ABI.md is the long form):
//   - push constant block, 16 bytes: `uint64_t params`, the device address of the parameter block, then
//     `uint64_t globals`, the device address of the module's .global variables (0 when there are none);
//   - the parameter block is the entry's `.param` space laid out exactly as PTX declares it: each parameter at
//     `offset` (aligned to max(natural alignment, .align)), `bytes` long; pointers are 64-bit device addresses;
//   - specialization constants 0, 1, 2 = block size x, y, z; 3 = dynamic shared memory bytes; 4 = the loop
//     budget guard (bool, kernels with loops; set on lavapipe);
//   - no descriptor sets for buffer kernels (global memory is reached through buffer device addresses);
//   - with checkBounds, a third push constant (24 bytes in all): `uint64_t bounds` (translator/emit/check_bounds.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace p2g {

// --check-bounds (translator/emit/check_bounds.h writes the shader side, runtime/vulkan/memcheck.h the host side;
// docs/ABI.md). The bounds buffer, whose address is the third push constant:
//    0 u32 hits (out-of-bounds accesses)   4 u32 first (1 once the first is recorded)
//    8 u32 what: bits 0..7 = 0 read, 1 write, 2 atomic; bits 8..11 = BoundsSpace
//   12 u32 bytes  16 u32 PTX line  20 u32 tid[3]  32 u32 ctaid[3]  44 u32 limit (the window's size; 0 for global)
//   48 u64 address (global) or offset in the window
// The buffers the kernel may address: kBoundsSlots (base address, size) pairs of 64-bit specialization constants,
// base i at id kBoundsSpecId + 2i, size i at kBoundsSpecId + 2i + 1; unused pairs stay 0.
constexpr uint32_t kBoundsSlots = 64;
// Case fact (specialization constant 11, a VkBool32): every pointer parameter of the launch (buffer parameters and
// struct fields) names a buffer of its own, so accesses through different parameters never meet
// (passes/barrier_mem.cpp, translator/emit/prelude.cpp p2g_bar_sync_p).
constexpr uint32_t kSpecParamsDisjoint = 11;
constexpr uint32_t kBoundsSpecId = 16;  // ids 6..15: device facts (runtime/vulkan/facts.h)
constexpr uint32_t kBoundsBytes = 56;
// Image state (docs/TEXTURES.md "Image state"): one 32-bit specialization constant per image slot of the manifest,
// id kImageSpecId + slot, 0 (unknown: the shader reads the descriptor record) unless the runtime sets it
// (runtime/common/images.h imageState). glslang accepts constant_id up to 2047.
constexpr uint32_t kImageSpecId = 256;
constexpr uint32_t kImageSpecSlots = 1024;
static_assert(kBoundsSpecId + 2 * kBoundsSlots <= kImageSpecId && kImageSpecId + kImageSpecSlots <= 2048);
enum class BoundsSpace : uint32_t { Global = 1, Shared = 2, Local = 3, Const = 4, Param = 5 };

struct ManifestParam {
  std::string name;        // PTX name, e.g. "_Z3addPfS_i_param_0"
  std::string type;        // PTX element type without dot: "u64", "f32", "b8"...
  uint32_t offset = 0;     // byte offset in the parameter block
  uint32_t bytes = 0;      // total size
  uint32_t align = 0;      // effective alignment
  bool isArray = false;    // .b8 name[N] (a struct passed by value)
  bool isPtr = false;      // declared .ptr, or used as an address in the kernel
};

// A texture or surface handle the kernel uses, traced back to where the runtime puts it (docs/TEXTURES.md).
// Handles are descriptor-record addresses the runtime writes into the parameter block, so this map is what a
// runner or a reader needs to know about the kernel's images; `slot` numbers the distinct handles.
struct ManifestImage {
  std::string kind;                // "texture" or "surface"
  uint32_t slot = 0;               // 0, 1, ... in order of parameter-block offset
  std::string param;               // the PTX parameter holding the handle, "k_param_5" (empty for a texref)
  uint32_t offset = 0;             // byte offset of the handle in the parameter block
  std::string texref;              // a module-scope .texref/.surfref variable instead of a parameter
  uint32_t dims = 0;               // 1, 2, 3 from the instructions (0 when only queried)
  bool layered = false;            // a1d/a2d instructions
  std::vector<std::string> uses;   // instruction forms, "tex.2d.v4.f32.f32", "sust.b.2d.b32.trap", ...
};

// Device-sampled images (docs/TEXTURES.md "Device sampling"): a texture slot of this form gets a combined image
// sampler `layout(set = 0, binding = <slot>) uniform sampler<dims>D p2g_hw<slot>` in the shader, and the runtime
// binds one there for every such slot (a real image of the case's texture where it can, else a 1-texel dummy).
// One rule for both sides, so that the shader's bindings and the runtime's descriptor set agree.
// 2D and 3D only: NVIDIA's sampler gave CUDA's bytes on every 2D and 3D texture case but not on a 1D one
// (ptx_corpus/outside/tex_coord_range_1d: 109 of 12,288 values differ with hw-tex forced, H100, driver 580.159.04,
// 2026-12-06; CUDA filters a 1D texture as a 2D one of height 1, docs/TEXTURES.md), so 1D keeps the software path.
inline bool deviceSampled(const ManifestImage& im) {
  return im.kind == "texture" && im.texref.empty() && !im.layered && im.dims >= 2 && im.dims <= 3 &&
         im.slot < kImageSpecSlots;
}
// Bit 30 of an image state (images.h imageState): the runtime bound a real image and sampler for the slot, made
// from the same texels and sampler state, and the device fact hw-tex holds: the shader may sample it with the
// device's texture unit instead of its software filter.
constexpr uint32_t kImageStateDeviceSampled = 1u << 30;

// One field of the parameter space as the kernel reads it (translator/emit/handles.h mapParamBlock).
struct ManifestParamField {
  uint32_t offset = 0;            // byte offset in the parameter block
  uint32_t bytes = 0;             // size of the load
  std::string type;               // the load's PTX type, "u64", "f32"...
  std::string kind;               // "texture", "surface", "buffer" or "scalar"
  std::vector<std::string> uses;  // consuming instruction forms (at most 6)
};

struct Manifest {
  int version = 1;
  std::string entry;               // kernel name
  std::string ptx;                 // source file as given to the translator
  std::vector<ManifestParam> params;
  uint32_t paramBytes = 0;         // size of the parameter block
  uint32_t staticSharedBytes = 0;  // .shared variables of the module and function
  bool dynamicShared = false;      // an extern .shared array is used
  uint32_t localBytes = 0;         // .local per thread
  uint32_t reqntid[3] = {0, 0, 0}; // from .reqntid (0 = not given)
  std::vector<std::string> features;  // device features the shader needs: "int64", "float64", "int16", "int8",
                                      // "storage8", "storage16", "atomic64", "float16"
  std::string glsl;                // file names relative to the manifest
  std::string spirv;
  // the module variant with the device's f16 arithmetic (GLSL compiled with P2G_F16_NATIVE; Float16 capability),
  // for devices with the fact f16-native (docs/DEVICE_FACTS.md); empty when the kernel has no f16 arithmetic
  std::string spirvF16;
  std::vector<std::string> warnings;  // translation notes a user must see (e.g. a not-yet-exact lowering)
  // Module-scope .global variables: the runtime allocates `globalsBytes` of device memory, fills it with
  // `globalsInit` (hex in JSON), and passes its device address as the second push constant (`uint64_t globals`).
  uint32_t globalsBytes = 0;
  std::vector<uint8_t> globalsInit;
  std::vector<ManifestImage> images;  // texture/surface handles (absent from the JSON when empty)
  std::vector<ManifestParamField> paramMap;  // what each loaded parameter offset is (absent when empty)
  // SFU model tables (translator/emit/sfu_prelude.cpp; absent from the JSON when none): the runtime appends the
  // named tables to the globals buffer (after globalsBytes) and writes table i's byte offset in that buffer into
  // the uint at byte sfuDir + 4 * i. The tables come from translator/sfu/tables (runtime/common/sfu_tables.h).
  std::vector<std::string> sfuTables;
  uint32_t sfuDir = 0;
  // A kernel with loops (JSON "loopGuard": the offset, absent otherwise): the uint at byte loopGuardAt of the
  // globals buffer counts subgroups that used up lavapipe's loop budget when specialization constant 4 is true
  // (translator/emit/emitter.cpp loopGuardText); the runtime sets it on lavapipe and refuses results when it is
  // not 0 after the dispatch.
  bool loopGuard = false;
  uint32_t loopGuardAt = 0;
  // The thread count a barrier of the kernel names (`bar.sync 0, 256`; JSON "blockThreads", absent when 0): only
  // barriers of the whole block are supported, so the launch refuses a block of another size.
  uint32_t blockThreads = 0;
  // Translated with --check-bounds (JSON "checkBounds": {"globalVarBytes": n}, absent otherwise): the shader
  // declares a third push constant `uint64_t bounds`, the address of the bounds buffer (docs/ABI.md); the runtime
  // lists the buffers there and reports the first out-of-bounds access. globalVarBytes is the end of the module's
  // .global variables (the part of the globals buffer the kernel itself may address).
  bool checkBounds = false;
  uint32_t globalVarBytes = 0;
};

// JSON round trip (runtime/common/manifest.cpp). `read` returns false and sets `err` on malformed input.
std::string manifestToJson(const Manifest& m);
bool manifestFromJson(const std::string& text, Manifest& m, std::string& err);

}  // namespace p2g

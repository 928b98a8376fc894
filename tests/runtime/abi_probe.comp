// A hand-written kernel that follows the shader ABI of runtime/common/manifest.h, so the Vulkan runtime can be
// tested without the translator. Its PTX would be:
//   .entry probe(.param .u64 x, .param .u64 out, .param .u32 n, .param .f32 scale,
//                .param .align 8 .b8 s[16], .param .u64 out2)
// with s holding a u32 `add` at byte 4. It computes out[i] = x[i] * scale (one correctly rounded multiply, so a
// CPU gives the same bits) and out2[i] = i + add + dynamic_shared_bytes (+ the first u32 of the module's .global
// data when there is any), for i < n.
#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(constant_id = 3) const uint kDynamicShared = 0;

layout(buffer_reference, scalar, buffer_reference_align = 8) readonly buffer Params {
  uint64_t x;       // offset 0
  uint64_t out1;    // 8
  uint n;           // 16
  float scale;      // 20
  uint s0;          // 24: struct s, bytes 0..3
  uint sAdd;        // 28: struct s, bytes 4..7
  uint64_t s8;      // 32: struct s, bytes 8..15
  uint64_t out2;    // 40
};
layout(buffer_reference, scalar, buffer_reference_align = 4) buffer F32s { float v[]; };
layout(buffer_reference, scalar, buffer_reference_align = 4) buffer U32s { uint v[]; };
layout(push_constant) uniform PushConstants { uint64_t params; uint64_t globals; } pc;

void main() {
  Params p = Params(pc.params);
  uint i = gl_GlobalInvocationID.x;
  if (i >= p.n) return;
  F32s(p.out1).v[i] = F32s(p.x).v[i] * p.scale;
  uint g = pc.globals != 0ul ? U32s(pc.globals).v[0] : 0u;
  U32s(p.out2).v[i] = i + p.sAdd + kDynamicShared + g;
}

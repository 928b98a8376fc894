// Descriptor set 0 as device-sampled textures declare it (runtime/common/manifest.h deviceSampled): combined image
// samplers at the bindings of their slots, here 0 (2D) and 3 (3D), next to the push constants of the shader ABI.
// For tests/runtime/test_device_images.cpp: the bindings read back from the SPIR-V, and a pipeline made from it.
#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(set = 0, binding = 0) uniform sampler2D p2g_hw0;
layout(set = 0, binding = 3) uniform sampler3D p2g_hw3;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32 { uint v; };
layout(push_constant) uniform PushConstants { uint64_t params; uint64_t globals; } pc;

void main() {
  vec4 a = textureLod(p2g_hw0, vec2(0.5), 0.0), b = textureLod(p2g_hw3, vec3(0.5), 0.0);
  U32(pc.params).v = floatBitsToUint(a.x + b.y);
}

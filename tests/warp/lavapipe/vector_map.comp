#version 460
// lavapipe's SIMD vectors (subgroups) against the linear invocation index: each invocation writes
// (gl_SubgroupID << 8 | gl_SubgroupInvocationID) at its gl_LocalInvocationIndex.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(push_constant) uniform P2GPush { uint64_t params; uint64_t globals; } pc;
layout(buffer_reference, std430, buffer_reference_align = 8) buffer P2GU64 { uint64_t v; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Out { uint w[]; };
void main() {
  Out o = Out(P2GU64(pc.params).v);
  o.w[gl_LocalInvocationIndex] = (gl_SubgroupID << 8) | gl_SubgroupInvocationID;
}
